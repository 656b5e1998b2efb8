import { routes } from '@curbside/api';
import type { TeacherStudent, VehicleType } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { batchQueries } from '../back-queue/batches.queries';
import { useLiveInvalidate } from '../live/live';
import { QUEUE_EVENTS, queueQueries } from '../queue/queue.queries';

/** The queue status card refetches the queue every 5 s on top of the live events. */
export const QUEUE_STATUS_POLL_MS = 5000;

/**
 * The teacher's view of the students in a session, or outside any session
 * (null) (`['teacher-students']`, which changes with the queue, releases and
 * pickups), and the school's classrooms and users (which do not change during
 * a dismissal).
 */
export const teacherQueries = {
  all: ['teacher-students'] as const,
  students: (sessionId: number | null) =>
    queryOptions({
      queryKey: [...teacherQueries.all, sessionId ?? 'no-session', 'all'] as const,
      queryFn: () => api(routes.teacherStudents, { query: { sessionId: sessionId ?? undefined } }),
    }),
  /** Students whose vehicle is in the queue, newest arrival first. */
  ready: (sessionId: number) =>
    queryOptions({
      queryKey: [...teacherQueries.all, sessionId, 'ready'] as const,
      queryFn: () => api(routes.readyStudents, { query: { sessionId } }),
    }),
};

export const classroomQueries = {
  all: ['classrooms'] as const,
  list: () =>
    queryOptions({
      queryKey: [...classroomQueries.all, 'list'] as const,
      queryFn: () => api(routes.listClassrooms),
    }),
};

export const userQueries = {
  all: ['users'] as const,
  list: () =>
    queryOptions({
      queryKey: [...userQueries.all, 'list'] as const,
      queryFn: () => api(routes.listUsers),
    }),
};

/** A registered vehicle by type and number, asked for only when a student not in the queue is opened. */
export const vehicleQueries = {
  all: ['vehicles'] as const,
  byNumber: (type: VehicleType, number: string) =>
    queryOptions({
      queryKey: [...vehicleQueries.all, type, number] as const,
      queryFn: async () => (await api(routes.listVehicles, { query: { type, number } })).items[0] ?? null,
    }),
};

/** Live events after which the teacher's student lists are out of date. */
export const TEACHER_EVENTS = [...QUEUE_EVENTS, 'STUDENT_STATUS_UPDATE'] as const;

/**
 * Keeps the teacher screen current: a car queued, removed, batched or
 * completed, or a student released anywhere refreshes the student lists; the
 * queue status card follows the queue; a completed batch joins 'Completed
 * Batches Today'.
 */
export const useTeacherLive = () => {
  useLiveInvalidate(TEACHER_EVENTS, [teacherQueries.all]);
  useLiveInvalidate(QUEUE_EVENTS, [queueQueries.all]);
  useLiveInvalidate('VEHICLES_REMOVED_FROM_QUEUE', [batchQueries.done]);
};

/** Releases a ready student for pickup. */
export const useReleaseStudent = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (student: Pick<TeacherStudent, 'id'>) =>
      api(routes.releaseStudent, { params: { id: student.id } }),
    onSuccess: ({ releasedAt }, student) => {
      queryClient.setQueriesData<TeacherStudent[]>({ queryKey: teacherQueries.all }, (list) =>
        list?.map((item) => (item.id === student.id ? { ...item, releasedAt } : item)),
      );
      notifications.show({
        color: 'green.9',
        title: 'Student released',
        message: 'The student has been released for pickup',
      });
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Failed to release student', message: errorMessage(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teacherQueries.all }),
  });
};
