import type { Classroom, User } from '@curbside/domain';
import { Badge, Card, Checkbox, Collapse, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { BORDER, MUTED_TEXT } from '../../lib/theme';
import { defaultClassroomIds, INITIAL_CLASSROOM_ID, NO_TEACHER, teacherNames } from './roster';
import { classroomQueries, userQueries } from './teacher.queries';

/**
 * The school's classrooms and the selected ones. Classrooms load only for a
 * user with a school; a teacher knows only themself as teacher, other roles
 * load the school's users. Until the user picks, the selection follows the
 * default (own classrooms, else the first; classroom 1 before loading).
 */
export const useClassroomSelection = (user: User | null) => {
  const classrooms = useQuery({ ...classroomQueries.list(), enabled: user?.schoolId != null });
  const users = useQuery({
    ...userQueries.list(),
    enabled: user !== null && user.schoolId != null && user.role !== 'teacher',
  });
  const [picked, setPicked] = useState<number[] | null>(null);
  const list = useMemo(() => classrooms.data ?? [], [classrooms.data]);
  const userId = user?.id ?? null;
  const selectedIds = useMemo(
    () => picked ?? (classrooms.data ? defaultClassroomIds(classrooms.data, userId) : [INITIAL_CLASSROOM_ID]),
    [picked, classrooms.data, userId],
  );
  const selected = useMemo(
    () =>
      selectedIds
        .map((id) => list.find((room) => room.id === id))
        .filter((room): room is Classroom => room !== undefined),
    [selectedIds, list],
  );
  const toggle = (id: number) =>
    setPicked((current) => {
      const base = current ?? selectedIds;
      return base.includes(id) ? base.filter((item) => item !== id) : [...base, id];
    });
  return {
    classrooms: list,
    isLoading: classrooms.isPending && classrooms.fetchStatus !== 'idle',
    selectedIds,
    selected,
    toggle,
    teachers: teacherNames(user, users.data),
  };
};

export type ClassroomSelection = ReturnType<typeof useClassroomSelection>;

/** 'Selected Classrooms (n)': a collapsible list of the school's classrooms to follow (open by default). */
export function ClassroomSelector({
  selection,
  defaultOpen = true,
}: {
  selection: ClassroomSelection;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const { classrooms, selectedIds, toggle, teachers, isLoading } = selection;
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-label="Classrooms">
      <UnstyledButton
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls="classroom-list"
        mih={48}
        w="100%"
      >
        <Group justify="space-between" wrap="nowrap">
          <Text fw={800} fz="lg" lh={1.25}>
            {`Selected Classrooms (${selectedIds.length})`}
          </Text>
          <Badge
            size="lg"
            variant="outline"
            color="var(--mantine-color-text)"
            tt="none"
            style={{ flexShrink: 0, overflow: 'visible' }}
          >
            {open ? 'Hide' : 'Show'}
          </Badge>
        </Group>
      </UnstyledButton>
      <Collapse in={open} id="classroom-list">
        <Stack gap="xs" pt="sm">
          {isLoading && <Loader size="sm" aria-label="Loading classrooms" />}
          {!isLoading && classrooms.length === 0 && (
            <Text c={MUTED_TEXT} fz="md">
              No classrooms found
            </Text>
          )}
          {classrooms.map((room) => {
            const checked = selectedIds.includes(room.id);
            return (
              <Checkbox.Card
                key={room.id}
                checked={checked}
                onClick={() => toggle(room.id)}
                radius="md"
                p="sm"
                aria-label={room.name}
                style={{
                  borderWidth: 2,
                  borderColor: checked ? 'var(--mantine-color-blue-8)' : BORDER,
                  background: checked ? 'var(--mantine-color-blue-light)' : undefined,
                }}
              >
                <Group wrap="nowrap" align="center" gap="sm">
                  <Checkbox.Indicator size="lg" />
                  <Stack gap={0} style={{ minWidth: 0 }}>
                    <Text fw={800} fz="lg" lh={1.25}>
                      {room.name}
                    </Text>
                    <Text fz="sm" fw={600} c={MUTED_TEXT}>
                      {`Grade ${room.grade}`}
                    </Text>
                    <Text fz="sm" c={MUTED_TEXT}>
                      {(room.teacherId !== null && teachers.get(room.teacherId)) || NO_TEACHER}
                    </Text>
                  </Stack>
                </Group>
              </Checkbox.Card>
            );
          })}
        </Stack>
      </Collapse>
    </Card>
  );
}
