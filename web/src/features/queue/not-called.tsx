import { type NotCalledStudent, notCalledOf, type QueueEntry } from '@curbside/domain';
import { Stack, Text } from '@mantine/core';
import { HttpError } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';

/**
 * The car line knows who is not coming (issue 52, ADR 0022): a visit's
 * children who go home another way today are shown struck through with the
 * reason ("Absent today", "Bus B3 today"), never called; and a car none of
 * whose children goes home in it today is answered 409 `{ message, notComing }`
 * until the staff queue it anyway.
 */
export interface NotComingAnswer {
  message: string;
  notComing: NotCalledStudent[];
}

/** The question a car's refusal asks, or null for any other error. */
export const notComingOf = (error: unknown): NotComingAnswer | null => {
  if (!(error instanceof HttpError) || error.status !== 409) return null;
  const body = error.body as Partial<NotComingAnswer> | null;
  if (!body || typeof body.message !== 'string' || !Array.isArray(body.notComing)) return null;
  return { message: body.message, notComing: body.notComing };
};

/** One struck-through line per child not called: "~~Ava S.~~ Absent today". */
export function NotCalledList({ students }: { students: readonly NotCalledStudent[] }) {
  if (students.length === 0) return null;
  return (
    <Stack gap={0} role="list" aria-label="Not coming today">
      {students.map((student) => (
        <Text key={student.id} fz="sm" c={MUTED_TEXT} role="listitem" data-not-called={student.id}>
          <s>{`${student.firstName} ${student.lastName}`}</s>
          {` — ${student.reason}`}
        </Text>
      ))}
    </Stack>
  );
}

/** A visit's children not called today, struck through. */
export function EntryNotCalled({ entry }: { entry: Pick<QueueEntry, 'notCalled'> }) {
  return <NotCalledList students={notCalledOf(entry)} />;
}
