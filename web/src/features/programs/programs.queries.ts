import { routes } from '@curbside/api';
import type { ProgramCheckIn, ProgramList } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';

/**
 * A program's list for today and its check-ins (issue 52): `['program-list', id]`,
 * kept current by `PROGRAM_CHECK_IN` (`withCheckIn`) and read again when a child
 * is sent or a change is approved.
 */
export const programQueries = {
  all: ['program-list'] as const,
  list: (programId: number) =>
    queryOptions({
      queryKey: [...programQueries.all, programId] as const,
      queryFn: () => api(routes.programStudents, { params: { id: programId }, query: {} }),
    }),
};

/** A program's list with one check-in (or its undo) applied. */
export const withCheckIn = (
  list: ProgramList | undefined,
  checkIn: ProgramCheckIn,
): ProgramList | undefined =>
  list && list.program.id === checkIn.programId && list.date === checkIn.date
    ? {
        ...list,
        students: list.students.map((student) =>
          student.id === checkIn.studentId
            ? { ...student, checkedInAt: checkIn.checkedInAt, checkedInBy: checkIn.checkedInBy }
            : student,
        ),
      }
    : list;

/** Checks a child in at their program today, or takes the check-in back. */
export const useCheckIn = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, undo }: { studentId: number; undo: boolean }) =>
      undo
        ? api(routes.undoProgramCheckIn, { params: { id: studentId } })
        : api(routes.checkInProgramStudent, { params: { id: studentId } }),
    onSuccess: (checkIn) =>
      queryClient.setQueryData(programQueries.list(checkIn.programId).queryKey, (list) =>
        withCheckIn(list, checkIn),
      ),
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Check-in failed', message: errorMessage(error) }),
  });
};
