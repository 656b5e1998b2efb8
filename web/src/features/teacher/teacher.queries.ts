import { routes } from '@curbside/api';
import { releasedText, type TeacherStudent, type VehicleType } from '@curbside/domain';
import { notifications } from '@mantine/notifications';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/http';
import { completedBatchesPatch } from '../back-queue/batches.cache';
import { useLivePatches } from '../live/live';
import { queuePatches } from '../queue/queue.cache';
import { classroomScope, QUEUE_STATUS_POLL_MS, teacherKeys, teacherPatches } from './teacher.cache';

export { QUEUE_STATUS_POLL_MS };

/** `3,7` for the query string, or nothing for the whole school. */
const classroomParam = (classroomIds?: readonly number[]) =>
  classroomIds === undefined ? undefined : classroomScope(classroomIds);

/**
 * The teacher's view of the students of the selected classrooms in a
 * session, or outside any session (null) (`['teacher-students']`, kept
 * current by `teacherPatches`), and the school's classrooms and users (which
 * do not change during a dismissal).
 */
export const teacherQueries = {
  all: teacherKeys.all,
  students: (sessionId: number | null, classroomIds?: readonly number[]) =>
    queryOptions({
      queryKey: teacherKeys.students(sessionId, classroomIds),
      queryFn: () =>
        api(routes.teacherStudents, {
          query: { sessionId: sessionId ?? undefined, classroomIds: classroomParam(classroomIds) },
        }),
    }),
  /** Students whose vehicle is in the queue, the cars being loaded now first. */
  ready: (sessionId: number, classroomIds?: readonly number[]) =>
    queryOptions({
      queryKey: teacherKeys.ready(sessionId, classroomIds),
      queryFn: () =>
        api(routes.readyStudents, { query: { sessionId, classroomIds: classroomParam(classroomIds) } }),
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

/**
 * Keeps the teacher screen current from the live events, without reading
 * per event: a car queued, removed, batched or completed, or a student
 * released anywhere, is patched into the student lists; the queue status
 * card follows the queue (and polls it every 5 s, as specified); a completed
 * batch joins 'Completed Batches Today'.
 */
export const useTeacherLive = () => {
  useLivePatches(teacherPatches);
  useLivePatches(queuePatches);
  useLivePatches([completedBatchesPatch]);
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
  });
};

/** What one press releases (issue 52): the walkers, a bus's riders or a program's children of some classrooms. */
export type WayPress =
  | { mode: 'walker'; classroomIds: number[] }
  | { mode: 'bus'; vehicleId: number; classroomIds: number[] }
  | { mode: 'program'; programId: number; classroomIds: number[] };

const pressed = (press: WayPress) => {
  const body = { classroomIds: press.classroomIds };
  if (press.mode === 'walker') return api(routes.releaseWalkers, { body });
  if (press.mode === 'bus') return api(routes.releaseBusRiders, { params: { id: press.vehicleId }, body });
  return api(routes.releaseToProgram, { params: { id: press.programId }, body });
};

/** "Release walkers", "Release riders", "Send to Kids Club": the children released at once show released. */
export const useReleaseByWay = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pressed,
    onSuccess: ({ released }, press) => {
      const ids = new Set(released);
      const releasedAt = new Date().toISOString();
      queryClient.setQueriesData<TeacherStudent[]>({ queryKey: teacherQueries.all }, (list) =>
        list?.map((item) => (ids.has(item.id) && item.releasedAt === null ? { ...item, releasedAt } : item)),
      );
      notifications.show({
        color: 'green.9',
        title: released.length === 0 ? 'Nobody to release' : 'Released',
        message: releasedText(
          released.length,
          press.mode === 'walker' ? 'walker' : press.mode === 'bus' ? 'rider' : 'student',
        ),
      });
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'Failed to release students', message: errorMessage(error) }),
  });
};
