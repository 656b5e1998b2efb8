import { routes } from '@curbside/api';
import type { StudentMark } from '@curbside/domain';
import { type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../lib/api';
import { entryChanges } from '../live/changes';
import { cachePatch } from '../live/live-sync';

/**
 * The session's released and picked-up students, for the badges on the
 * queue cards and batch chips: read once, then kept current by the live
 * events (a teacher's release, a completed pickup).
 */
export const releaseKeys = {
  session: (sessionId: number) => ['releases', sessionId] as const,
};

export const releaseQueries = {
  session: (sessionId: number) =>
    queryOptions({
      queryKey: releaseKeys.session(sessionId),
      queryFn: () => api(routes.sessionReleases, { params: { id: sessionId } }),
    }),
};

const isKey = (queryKey: QueryKey, sessionId: number) =>
  queryKey.length === 2 && queryKey[0] === 'releases' && queryKey[1] === sessionId;

/** The marks with a student's change applied (a new list only when something changed). */
const marked = (
  marks: StudentMark[],
  studentId: number,
  change: Partial<Pick<StudentMark, 'releasedAt' | 'pickedUpAt'>>,
): StudentMark[] => {
  const at = marks.findIndex((mark) => mark.studentId === studentId);
  if (at < 0) return [...marks, { studentId, releasedAt: null, pickedUpAt: null, ...change }];
  const before = marks[at] as StudentMark;
  const after = {
    ...before,
    releasedAt: before.releasedAt ?? change.releasedAt ?? null,
    pickedUpAt: before.pickedUpAt ?? change.pickedUpAt ?? null,
  };
  if (after.releasedAt === before.releasedAt && after.pickedUpAt === before.pickedUpAt) return marks;
  return marks.map((mark, i) => (i === at ? after : mark));
};

/** Releases come with STUDENT_STATUS_UPDATE (and STUDENTS_RELEASED); a completed pickup marks its children picked up. */
export const releasesPatch = cachePatch<StudentMark[]>({
  name: 'queue.releases',
  matches: isKey,
  reduce: (marks, event) => {
    if (event.type === 'STUDENT_STATUS_UPDATE') {
      // Staff receive releases only; a parent's copies of other statuses name no release.
      const { data } = event;
      return data.status === 'released'
        ? marked(marks, data.studentId, { releasedAt: data.releasedAt })
        : marks;
    }
    // Walkers, a bus's riders or a program's children released in one press (issue 52).
    if (event.type === 'STUDENTS_RELEASED') {
      const { releasedAt } = event.data;
      return event.data.students.reduce((list, student) => marked(list, student.id, { releasedAt }), marks);
    }
    return entryChanges(event)
      .filter(({ entry }) => entry.status === 'completed')
      .reduce(
        (next, { entry }) =>
          entry.students.reduce(
            (list, student) =>
              marked(list, student.id, { pickedUpAt: entry.exitTime ?? new Date().toISOString() }),
            next,
          ),
        marks,
      );
  },
});

/** Student id → their mark in the session (empty while loading or without a session). */
export const useStudentMarks = (sessionId: number | null | undefined): ReadonlyMap<number, StudentMark> => {
  const { data } = useQuery({ ...releaseQueries.session(sessionId ?? 0), enabled: Boolean(sessionId) });
  const map = new Map<number, StudentMark>();
  for (const mark of data ?? []) map.set(mark.studentId, mark);
  return map;
};

/** No marks: the placeholder a card's selection reads before the session's marks are in. */
const NO_MARKS: StudentMark[] = [];

/**
 * The marks of these students only (issue 57, h57x): a card's badges. The session's marks are
 * selected down to the card's children and kept as the same list while they do not change
 * (TanStack Query's structural sharing of a selection, from an empty placeholder): the marks'
 * answer, and a release of another car's child, draw again only the cards whose children's marks
 * changed, not every card of the queue.
 */
export const useMarksOf = (
  sessionId: number | null | undefined,
  students: readonly { id: number }[],
): readonly StudentMark[] => {
  const ids = students.map((student) => student.id).join(',');
  const select = useCallback(
    (marks: StudentMark[]) => {
      const wanted = new Set(ids.split(',').map(Number));
      const mine = marks.filter((mark) => wanted.has(mark.studentId));
      // None: the one empty list, so the placeholder's selection (made again at each result) is
      // the same data, not a new result for React to draw again as the card subscribes.
      return mine.length === 0 ? NO_MARKS : mine;
    },
    [ids],
  );
  const { data } = useQuery({
    ...releaseQueries.session(sessionId ?? 0),
    enabled: Boolean(sessionId),
    placeholderData: NO_MARKS,
    select,
  });
  return data ?? NO_MARKS;
};
