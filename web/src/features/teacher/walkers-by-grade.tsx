import { RELEASE_WALKERS } from '@curbside/domain';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MUTED_TEXT } from '../../lib/theme';
import { classroomQueries, useReleaseByWay } from './teacher.queries';

/**
 * "Release walkers" per grade on the school admin screen (issue 52): one press
 * releases every present walker of that grade's classrooms, each once, at the
 * time the school chooses.
 */
export function WalkersByGrade() {
  const rooms = useQuery(classroomQueries.list()).data ?? [];
  const release = useReleaseByWay();
  const grades = [...new Set(rooms.map((room) => room.grade))].sort((a, b) =>
    a.localeCompare(b, undefined, { numeric: true }),
  );
  return (
    <Card p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="walkers-by-grade">
      <Stack gap="xs">
        <Title order={2} fz="xl" id="walkers-by-grade">
          Walkers
        </Title>
        <Text fz="sm" c={MUTED_TEXT}>
          Releases every present walker of a grade's classrooms; nobody is released twice.
        </Text>
        <Group gap="xs" wrap="wrap">
          {grades.map((grade) => (
            <Button
              key={grade}
              color="green.9"
              loading={
                release.isPending && release.variables?.classroomIds.join() === idsOf(rooms, grade).join()
              }
              onClick={() => release.mutate({ mode: 'walker', classroomIds: idsOf(rooms, grade) })}
            >
              {`${RELEASE_WALKERS}: Grade ${grade}`}
            </Button>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}

const idsOf = (rooms: ReadonlyArray<{ id: number; grade: string }>, grade: string) =>
  rooms.filter((room) => room.grade === grade).map((room) => room.id);
