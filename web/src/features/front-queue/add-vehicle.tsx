import {
  type AddVehicleInput,
  isUnregistered,
  type QueueEntry,
  type VehicleType,
  vehicleName,
  vehicleNumberProblem,
} from '@curbside/domain';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { SegmentedRadios } from '../../components/segmented-radios';
import { errorMessage } from '../../lib/http';
import { DANGER_TEXT } from '../../lib/theme';
import { vehicleToastSubject, withdrawLiveToast } from '../../lib/toasts';
import { NotCalledList, type NotComingAnswer, notComingOf } from '../queue/not-called';
import { useAddToQueue, useRemoveFromQueue } from '../queue/queue.queries';

const VEHICLE_TYPES: ReadonlyArray<{ value: VehicleType; label: string }> = [
  { label: 'Car', value: 'car' },
  { label: 'Bus', value: 'bus' },
];
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'Clear', '0', 'Enter'] as const;

/**
 * A warning about the car just entered, with the staff's two choices side by
 * side where they fit whole, one above the other on a narrow phone.
 */
function CarWarning({
  title,
  children,
  yes,
  no,
}: {
  title: string;
  children: ReactNode;
  yes: { label: string; onClick: () => void };
  no: { label: string; onClick: () => void };
}) {
  return (
    <Alert
      color="orange.9"
      variant="outline"
      role="alert"
      title={title}
      styles={{
        title: {
          color: 'var(--mantine-color-text)',
          fontSize: 'var(--mantine-font-size-lg)',
          fontWeight: 800,
        },
        message: { color: 'var(--mantine-color-text)' },
      }}
    >
      <Stack gap="xs">
        {children}
        <Group gap="xs" wrap="wrap">
          {/* White on #7c2d12 is 9.5:1: AAA in the Bright theme too. */}
          <Button size="md" color="#7c2d12" onClick={yes.onClick} style={{ flex: '1 0 auto' }}>
            {yes.label}
          </Button>
          <Button size="md" variant="default" onClick={no.onClick} style={{ flex: '1 0 auto' }}>
            {no.label}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * A number that is not on the school's vehicle list was queued (a borrowed car
 * is never refused): says so plainly, and offers to take it out again and put
 * the number back for correction, or to keep it.
 */
function UnregisteredWarning({
  entry,
  onRemove,
  onKeep,
}: {
  entry: QueueEntry;
  onRemove: () => void;
  onKeep: () => void;
}) {
  const name = vehicleName(entry.vehicleType, entry.vehicleNumber);
  return (
    <CarWarning
      title={`${name} is not registered`}
      yes={{ label: 'Remove and re-enter', onClick: onRemove }}
      no={{ label: 'Keep it', onClick: onKeep }}
    >
      <Text fz="md" inherit>
        It is in the queue, but no family or student on the school's list goes with this number. If it was
        mistyped, remove it and enter it again.
      </Text>
    </CarWarning>
  );
}

/**
 * A car none of whose children goes home in it today (issue 52): the server's
 * question, each child struck through with the reason, and the staff's
 * choice: an adult in a car is a person waiting, so it can be queued anyway.
 */
function NotComingWarning({
  answer,
  onQueue,
  onCancel,
}: {
  answer: NotComingAnswer;
  onQueue: () => void;
  onCancel: () => void;
}) {
  return (
    <CarWarning
      title={answer.message.replace(/ \(.*$/, '')}
      yes={{ label: 'Queue anyway', onClick: onQueue }}
      no={{ label: "Don't queue", onClick: onCancel }}
    >
      <NotCalledList students={answer.notComing} />
    </CarWarning>
  );
}

/**
 * Add Vehicle to Queue: Car/Bus, the vehicle number (typed or from the
 * on-screen keypad) and Add to Queue. Adding clears the number at once and
 * keeps the chosen type, so the next car's number can be typed, and sent,
 * while the previous one is on its way: only what was sent is cleared. A
 * refusal shows under the number; the refused number comes back for
 * correction unless the next one is already being typed (the message then
 * names the car). Any live announcement about that car is taken back, so the
 * screen never says "added" about a car the server just refused here.
 * A number not on the school's list is queued all the same, and the card
 * says so with a way to correct it. Compact enough that the whole keypad
 * and Add to Queue fit a 768 px high tablet and a phone's first screen.
 */
export function AddVehicleCard({ sessionId }: { sessionId: number }) {
  const [vehicleType, setVehicleType] = useState<VehicleType>('car');
  const [vehicleNumber, setVehicleNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unregistered, setUnregistered] = useState<QueueEntry | null>(null);
  /** A car refused because none of its children goes home in it today, until the staff decide. */
  const [notComing, setNotComing] = useState<{ input: AddVehicleInput; answer: NotComingAnswer } | null>(
    null,
  );
  /** Adds sent and not yet answered (several when the next car was entered meanwhile). */
  const [sending, setSending] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  /** The number as shown now, for an answer that arrives later. */
  const typed = useRef(vehicleNumber);
  typed.current = vehicleNumber;
  const add = useAddToQueue();
  const remove = useRemoveFromQueue();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const problem = vehicleNumberProblem(vehicleNumber);
    if (problem) {
      // A second press of an add that already went (its number cleared) is no mistake.
      if (sending === 0 || vehicleNumber.trim() !== '') setError(problem);
      return;
    }
    setError(null);
    const number = vehicleNumber.trim();
    const type = vehicleType;
    setVehicleNumber('');
    send({ sessionId, vehicleNumber: number, vehicleType: type });
  };

  const send = (sent: AddVehicleInput) => {
    const number = sent.vehicleNumber;
    const type = sent.vehicleType ?? 'car';
    setNotComing(null);
    setSending((count) => count + 1);
    add
      .mutateAsync(sent)
      .then((entry) => setUnregistered(entry && isUnregistered(entry) ? entry : null))
      .catch((refusal: unknown) => {
        withdrawLiveToast(vehicleToastSubject(type, number));
        const answer = notComingOf(refusal);
        if (answer) {
          setNotComing({ input: sent, answer });
          return;
        }
        if (typed.current.trim() === '') {
          setVehicleNumber(number);
          setError(errorMessage(refusal));
          requestAnimationFrame(() => input.current?.select());
        } else {
          setError(`${vehicleName(type, number)}: ${errorMessage(refusal)}`);
        }
      })
      .finally(() => setSending((count) => count - 1));
  };

  const reenter = (entry: QueueEntry) => {
    remove.mutate(entry);
    setUnregistered(null);
    setVehicleType(entry.vehicleType);
    setVehicleNumber(entry.vehicleNumber);
    requestAnimationFrame(() => input.current?.select());
  };

  const type = (digits: string) => {
    setError(null);
    setVehicleNumber(digits);
  };

  const onKey = (key: (typeof KEYS)[number]) => {
    if (key === 'Clear') type('');
    else if (key === 'Enter') submit();
    else type(`${vehicleNumber}${key}`.slice(0, 12));
  };

  return (
    <Card p="sm" component="section" aria-labelledby="add-vehicle-title">
      <form onSubmit={submit} noValidate>
        {/* Tight enough that the keypad and Add to Queue stay on a 1024×768 tablet's first screen
            under five alerts' banner, and on a phone's under two (issue 50). */}
        <Stack gap="xs">
          <Title order={2} fz={{ base: 'xl', md: 'lg' }} id="add-vehicle-title">
            Add Vehicle to Queue
          </Title>
          {/* Not Mantine's SegmentedControl, which measures itself in the keypad's first commit (h57v). */}
          <SegmentedRadios
            fullWidth
            label="Vehicle type"
            value={vehicleType}
            onChange={setVehicleType}
            data={VEHICLE_TYPES}
          />
          <TextInput
            ref={input}
            label="Vehicle Number"
            size="xl"
            value={vehicleNumber}
            onChange={(event) => type(event.currentTarget.value)}
            error={error}
            inputMode="numeric"
            autoComplete="off"
            styles={{
              label: { fontSize: 'var(--mantine-font-size-lg)' },
              input: {
                height: 52,
                minHeight: 52,
                fontSize: 32,
                fontWeight: 800,
                letterSpacing: 2,
                textAlign: 'center',
              },
              error: { fontSize: 'var(--mantine-font-size-md)', fontWeight: 700 },
            }}
          />
          {notComing && (
            <NotComingWarning
              answer={notComing.answer}
              onQueue={() => send({ ...notComing.input, queueAnyway: true })}
              onCancel={() => setNotComing(null)}
            />
          )}
          {unregistered && (
            <UnregisteredWarning
              entry={unregistered}
              onRemove={() => reenter(unregistered)}
              onKeep={() => setUnregistered(null)}
            />
          )}
          <SimpleGrid cols={3} spacing={8} verticalSpacing={8} role="group" aria-label="Keypad">
            {KEYS.map((key) => (
              <Button
                key={key}
                type="button"
                h={58}
                px={0}
                fz={key.length > 1 ? 20 : 28}
                fw={800}
                variant={key === 'Enter' ? 'filled' : key === 'Clear' ? 'outline' : 'default'}
                color={key === 'Clear' ? 'red.8' : undefined}
                // Dark red on light schemes, light red on dark: readable either way.
                style={key === 'Clear' ? { color: DANGER_TEXT, borderColor: DANGER_TEXT } : undefined}
                onClick={() => onKey(key)}
              >
                {key}
              </Button>
            ))}
          </SimpleGrid>
          <Button type="submit" size="xl" h={64} fz={24} fullWidth>
            {sending > 0 ? 'Adding...' : 'Add to Queue'}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
