import { routes } from '@curbside/api';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';

/** A student's pickup code as the server answers it. */
export type StudentCode = NonNullable<Awaited<ReturnType<typeof fetchCode>>>;

/** The student's current code; any failure reads as "no code" (null). */
const fetchCode = async (studentId: number) => {
  try {
    return await api(routes.studentPickupCode, { params: { id: studentId } });
  } catch (error) {
    console.warn('Could not load the pickup code:', error);
    return null;
  }
};

export const pickupCodeQueries = {
  all: ['pickup-codes'] as const,
  student: (studentId: number) =>
    queryOptions({
      queryKey: [...pickupCodeQueries.all, studentId] as const,
      queryFn: () => fetchCode(studentId),
    }),
};

/** Who the code is for: the toast names the student. */
export interface CodeStudent {
  id: number;
  firstName: string;
  lastName: string;
}

export const NO_STUDENT_SELECTED = 'No student selected';

/** The link a parent opens (or scans) to join a child: `{origin}/invite/{code}`. */
export const inviteUrl = (code: string, origin: string = window.location.origin) =>
  `${origin}/invite/${code}`;

/**
 * Generates a code from the teacher screen (`POST /api/pickup-codes/generate`):
 * 'Pickup Code Generated' / 'Code {code} generated for {name}', or
 * 'Error' / 'Failed to generate pickup code'.
 */
export const useGenerateCode = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (student: CodeStudent | null) => {
      if (!student) throw new Error(NO_STUDENT_SELECTED);
      return api(routes.generatePickupCode, { body: { studentId: student.id } });
    },
    onSuccess: (code, student) => {
      if (student) queryClient.setQueryData(pickupCodeQueries.student(student.id).queryKey, code);
      notifications.show({
        color: 'green.9',
        title: 'Pickup Code Generated',
        message: `Code ${code.code} generated for ${student?.firstName} ${student?.lastName}`,
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        title: 'Error',
        message:
          error instanceof Error && error.message === NO_STUDENT_SELECTED
            ? NO_STUDENT_SELECTED
            : 'Failed to generate pickup code',
      }),
    onSettled: (_, __, student) =>
      student
        ? queryClient.invalidateQueries({ queryKey: pickupCodeQueries.student(student.id).queryKey })
        : undefined,
  });
};

/**
 * Creates a code from a student's own code dialog elsewhere
 * (`POST /api/students/{id}/pickup-code`): a failure reads
 * 'Failed to create code' with the server's message.
 */
export const useCreateCode = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (student: CodeStudent | null) => {
      if (!student) throw new Error(NO_STUDENT_SELECTED);
      return api(routes.newStudentPickupCode, { params: { id: student.id } });
    },
    onSuccess: (code, student) => {
      if (student) queryClient.setQueryData(pickupCodeQueries.student(student.id).queryKey, code);
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Failed to create code', message: errorMessage(error) }),
    onSettled: (_, __, student) =>
      student
        ? queryClient.invalidateQueries({ queryKey: pickupCodeQueries.student(student.id).queryKey })
        : undefined,
  });
};
