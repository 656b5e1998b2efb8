import {
  type PickupSession,
  type QueueEntry,
  type ReleaseMark,
  type StudentMark,
  unreleasedQuestion,
  unreleasedStudentsOf,
  vehicleName,
} from '@curbside/domain';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { ACTIVE_SESSION_KEY } from '../../lib/query-keys';
import { releaseKeys } from './releases';
import type { UnreleasedAnswer } from './unreleased';
import classes from './unreleased.module.css';

const TITLE_ID = 'unreleased-question-title';

/**
 * The question a completion asks when a child of the car (or batch) was not
 * released by a teacher (issue 50): "Leo Johnson has not been released by a
 * teacher. Complete anyway?", naming each child and their vehicle, with
 * Cancel and Complete anyway. One at a time, for every staff screen.
 */
interface Question extends UnreleasedAnswer {
  /** Sends the same completion again, confirmed. */
  confirm: () => void;
}

let asked: Question | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

/** Asks the staff (the modal below shows it). */
export const askUnreleased = (question: Question) => {
  asked = question;
  changed();
};

/** Visits about to be completed, as the screen holds them (their children, when it knows them). */
export type Completing = Pick<QueueEntry, 'id' | 'vehicleNumber' | 'vehicleType'> & {
  students?: QueueEntry['students'] | undefined;
};

/**
 * Asks first, before anything is sent, when the session's release marks this
 * screen holds (kept current by the live events) say a child of the visits
 * being completed was not released by a teacher; else completes at once. In a
 * morning drop-off, or when the screen does not know the children or the
 * marks yet, it completes at once too, and the server's 409 asks instead.
 * `complete(true)`: completed anyway.
 */
export const useAskFirst = () => {
  const queryClient = useQueryClient();
  return (visits: readonly Completing[] | undefined, complete: (confirmUnreleased: boolean) => void) => {
    const session = queryClient.getQueryData<PickupSession | null>(ACTIVE_SESSION_KEY);
    const marks = session && queryClient.getQueryData<StudentMark[]>(releaseKeys.session(session.id));
    const known = visits?.every((visit) => visit.students !== undefined) ? visits : undefined;
    if (session?.type !== 'afternoon_pickup' || !marks || !known) return complete(false);
    const released = new Map<number, ReleaseMark>();
    for (const mark of marks) {
      if (mark.releasedAt !== null)
        released.set(mark.studentId, { releasedAt: mark.releasedAt, releasedBy: null });
    }
    const unreleased = unreleasedStudentsOf(
      known.map((visit) => ({ ...visit, students: visit.students ?? [] })),
      released,
    );
    if (unreleased.length === 0) return complete(false);
    askUnreleased({ message: unreleasedQuestion(unreleased), unreleased, confirm: () => complete(true) });
  };
};

const close = () => {
  asked = null;
  changed();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** Mounted once on the staff screens: the question, while one is asked. */
export function UnreleasedQuestion() {
  const question = useSyncExternalStore(
    subscribe,
    () => asked,
    () => null,
  );
  const dialog = useRef<HTMLDialogElement>(null);
  // The browser's own modal dialog (top layer: above any open details dialog; Esc closes it;
  // the page behind is inert) keeps Mantine's Modal out of the queue screens' first load.
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (question && !element.open) element.showModal();
    if (!question && element.open) element.close();
  }, [question]);
  return (
    <dialog ref={dialog} aria-labelledby={TITLE_ID} onClose={close} className={classes.dialog}>
      {question && (
        <Stack gap="md">
          <Title id={TITLE_ID} order={2} fz="xl" fw={800}>
            Not released by a teacher
          </Title>
          <Text fz="lg" fw={600}>
            {question.message}
          </Text>
          <Stack component="ul" gap={4} m={0} pl="lg" aria-label="Children not released">
            {question.unreleased.map((student) => (
              <Text component="li" fz="md" key={student.id}>
                {`${student.firstName} ${student.lastName} · ${vehicleName(student.vehicleType, student.vehicleNumber)}`}
              </Text>
            ))}
          </Stack>
          <Group justify="flex-end" gap="sm">
            <Button size="lg" variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              size="lg"
              color="green.9"
              onClick={() => {
                close();
                question.confirm();
              }}
            >
              Complete anyway
            </Button>
          </Group>
        </Stack>
      )}
    </dialog>
  );
}
