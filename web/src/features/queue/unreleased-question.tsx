import { vehicleName } from '@curbside/domain';
import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import type { UnreleasedAnswer } from './unreleased';

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
  return (
    <Modal
      opened={question !== null}
      onClose={close}
      title="Not released by a teacher"
      centered
      size="md"
      zIndex={400}
      styles={{ title: { fontWeight: 800, fontSize: 'var(--mantine-font-size-xl)' } }}
    >
      {question && (
        <Stack gap="md">
          <Text fz="lg" fw={600}>
            {question.message}
          </Text>
          <List spacing={4} fz="md" aria-label="Children not released">
            {question.unreleased.map((student) => (
              <List.Item key={student.id}>
                {`${student.firstName} ${student.lastName} · ${vehicleName(student.vehicleType, student.vehicleNumber)}`}
              </List.Item>
            ))}
          </List>
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
    </Modal>
  );
}
