import type { RosterRef } from '@curbside/domain';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { rosterQueries, type SchoolScope } from './rosters.queries';

const labelOf = (student: RosterRef) => `${student.firstName} ${student.lastName} (grade ${student.grade})`;

/** Picks students by searching the school's roster; the chosen ones stay listed. */
export function StudentPicker({
  schoolId,
  label,
  value,
  onChange,
  error,
}: {
  schoolId: SchoolScope;
  label: string;
  value: RosterRef[];
  onChange: (students: RosterRef[]) => void;
  error?: string | undefined;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const found = useQuery(rosterQueries.studentOptions(schoolId, debounced));
  const known = new Map<number, RosterRef>(value.map((student) => [student.id, student]));
  for (const student of found.data?.items ?? []) if (!known.has(student.id)) known.set(student.id, student);
  return (
    <MultiSelect
      label={label}
      placeholder={value.length === 0 ? 'Type a name to find students' : undefined}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={found.isFetching ? 'Searching…' : 'No students found'}
      data={[...known.values()].map((student) => ({ value: String(student.id), label: labelOf(student) }))}
      value={value.map((student) => String(student.id))}
      onChange={(ids) => onChange(ids.map((id) => known.get(Number(id))).filter((s): s is RosterRef => !!s))}
      error={error}
      clearable
      maxDropdownHeight={220}
      // Inside the dialog, not in a portal beside the page: on a phone a list placed by the
      // page widened it, which moved the dialog, which moved the list, which closed it.
      comboboxProps={{ withinPortal: false, position: 'bottom', middlewares: { flip: true, shift: false } }}
    />
  );
}
