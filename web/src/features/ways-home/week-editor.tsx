import {
  CAR_EVERY_DAY,
  SCHOOL_DAYS,
  type SchoolDay,
  type WayHome,
  type WayOptions,
  type WeeklyPlan,
  wayText,
} from '@curbside/domain';
import { Alert, Button, Group, Loader, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { valueOfWay, wayChoices, wayOfValue } from './way-choices';
import { type SchoolScope, useSavePlan, waysHomeQueries } from './ways-home.queries';

const DAY_NAME: Record<SchoolDay, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
};

const NO_OPTIONS: WayOptions = { buses: [], programs: [] };

/**
 * A student's default week (issue 51): a way home per school day, from the
 * school's buses and programs; "Every day" sets the five at once. Read-only
 * for a user who may not change it.
 */
export function WeekEditor({
  schoolId,
  student,
  canSave,
  onClose,
}: {
  schoolId: SchoolScope;
  student: { id: number; firstName: string; lastName: string };
  canSave: boolean;
  onClose: () => void;
}) {
  const current = useQuery(waysHomeQueries.studentPlan(schoolId, student.id));
  const options = useQuery(waysHomeQueries.options(schoolId)).data ?? NO_OPTIONS;
  const save = useSavePlan(schoolId);
  const [week, setWeek] = useState<WeeklyPlan | null>(null);
  useEffect(() => {
    if (current.data && week === null) setWeek(current.data.plan);
  }, [current.data, week]);
  const plan = week ?? CAR_EVERY_DAY;
  const label = (way: WayHome) => wayText(way, options);
  const choices = wayChoices(options, (way) => wayText(way, options), { absent: false });
  // A way the plan names that is no longer offered (a deactivated program) still shows.
  const withCurrent = (way: WayHome) =>
    choices.some((choice) => choice.value === valueOfWay(way))
      ? choices
      : [...choices, { value: valueOfWay(way), label: `${label(way)} (no longer offered)` }];
  const same = SCHOOL_DAYS.every((day) => valueOfWay(plan[day]) === valueOfWay(plan.mon));
  const name = `${student.firstName} ${student.lastName}`;
  return (
    <Modal opened onClose={onClose} title={`Way home of ${name}`} centered size="lg">
      {current.isPending ? (
        <Loader aria-label="Loading the way home" />
      ) : current.isError ? (
        <Alert color="red" role="alert">
          {errorMessage(current.error)}
        </Alert>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate({ studentId: student.id, plan }, { onSuccess: onClose });
          }}
        >
          <Stack gap="sm">
            <Text c={MUTED_TEXT} fz="sm">
              How {student.firstName} goes home on a usual week. A family's or the office's change for a day
              comes on top of it.
            </Text>
            <Select
              label="Every day"
              placeholder={same ? undefined : 'Differs by day'}
              data={choices}
              value={same ? valueOfWay(plan.mon) : null}
              disabled={!canSave}
              onChange={(value) => {
                if (!value) return;
                const way = wayOfValue(value) as WayHome;
                setWeek({ mon: way, tue: way, wed: way, thu: way, fri: way });
              }}
              comboboxProps={{ withinPortal: false }}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {SCHOOL_DAYS.map((day) => (
                <Select
                  key={day}
                  label={DAY_NAME[day]}
                  data={withCurrent(plan[day])}
                  value={valueOfWay(plan[day])}
                  disabled={!canSave}
                  allowDeselect={false}
                  onChange={(value) => value && setWeek({ ...plan, [day]: wayOfValue(value) as WayHome })}
                  comboboxProps={{ withinPortal: false }}
                />
              ))}
            </SimpleGrid>
            {save.isError && (
              <Alert color="red" role="alert">
                {errorMessage(save.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {canSave ? 'Cancel' : 'Close'}
              </Button>
              {canSave && (
                <Button type="submit" loading={save.isPending}>
                  Save way home
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
