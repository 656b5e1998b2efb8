import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ReadState } from '../../components/read-state';
import { Choices } from './choices';
import { sisQueries } from './sis.queries';

/** The second step: a school of the Clever district, imported as a school of the local district. */
export function SchoolStep(props: {
  districtId: string;
  selected: string | null;
  onSelect: (id: string) => void;
  localDistrict: string;
  onLocalDistrict: (value: string) => void;
  importing: boolean;
  onImport: () => void;
  onBack: () => void;
  onNext: () => void;
}) {
  const schools = useQuery(sisQueries.schools(props.districtId));
  if (!schools.isSuccess)
    return <ReadState query={schools} loading="Loading schools" failed="Failed to fetch schools" />;
  return (
    <Stack gap="md" pt="md">
      <Choices
        label="Clever school"
        selected={props.selected}
        onSelect={props.onSelect}
        options={schools.data.map((school) => ({
          id: school.id,
          name: school.name,
          detail: `Clever id ${school.id}`,
        }))}
      />
      <TextInput
        label="Local district ID"
        description="The Curbside district the school joins"
        value={props.localDistrict}
        onChange={(event) => props.onLocalDistrict(event.currentTarget.value)}
        inputMode="numeric"
        maw={280}
      />
      <Group>
        <Button variant="default" onClick={props.onBack}>
          Back
        </Button>
        <Button
          variant="light"
          disabled={!props.selected || props.localDistrict.trim() === ''}
          loading={props.importing}
          onClick={props.onImport}
        >
          Import School
        </Button>
        <Button disabled={!props.selected} onClick={props.onNext}>
          Next
        </Button>
      </Group>
    </Stack>
  );
}
