import {
  type AddVehicleInput,
  isUnregistered,
  type QueueEntry,
  type VehicleType,
  vehicleName,
  vehicleNumberProblem,
} from '@curbside/domain';
import {
  Alert,
  Button,
  Card,
  Group,
  Input,
  type MantineTheme,
  Paper,
  rem,
  SimpleGrid,
  Stack,
  Text,
  Title,
  useMantineTheme,
} from '@mantine/core';
import {
  type ChangeEvent,
  type CSSProperties,
  type FormEvent,
  type ReactNode,
  type Ref,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { STACK, stackGap } from '../../components/mantine-layout';
import { ButtonLabel, buttonLook, PlainButton } from '../../components/mantine-look';
import { SegmentedRadios } from '../../components/segmented-radios';
import { errorMessage } from '../../lib/http';
import { DANGER_TEXT } from '../../lib/theme';
import { vehicleToastSubject, withdrawLiveToast } from '../../lib/toasts';
import { NotCalledList, type NotComingAnswer, notComingOf } from '../queue/not-called';
import { useAddToQueue, useRemoveFromQueue } from '../queue/queue.queries';
import classes from './front-queue.module.css';

const VEHICLE_TYPES: ReadonlyArray<{ value: VehicleType; label: string }> = [
  { label: 'Car', value: 'car' },
  { label: 'Bus', value: 'bus' },
];
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'Clear', '0', 'Enter'] as const;
type Key = (typeof KEYS)[number];

/** The variables Mantine's Card (the theme's border, shadow, radius) and Title set (h57ka). */
const CARD = {
  '--paper-radius': 'var(--mantine-radius-lg)',
  '--paper-shadow': 'var(--mantine-shadow-sm)',
  '--card-padding': 'var(--mantine-spacing-xl)',
  padding: 'var(--mantine-spacing-sm)',
} as CSSProperties;
const GAP_XS = stackGap('xs');
const H2 = {
  '--title-fw': 'var(--mantine-h2-font-weight)',
  '--title-lh': 'var(--mantine-h2-line-height)',
  '--title-fz': 'var(--mantine-h2-font-size)',
} as CSSProperties;
const KEYPAD = { '--sg-spacing-x': rem(8), '--sg-spacing-y': rem(8), '--sg-cols': 3 } as CSSProperties;
const ADD = { fontSize: rem(24), height: rem(64) };

/** A key of the keypad: 58 px high, the digits larger than Clear and Enter; Clear in dark red. */
const keyLook = (theme: MantineTheme, key: Key) =>
  buttonLook(
    theme,
    key === 'Enter'
      ? { variant: 'filled' }
      : key === 'Clear'
        ? { variant: 'outline', color: 'red.8' }
        : { variant: 'default' },
    {
      // Dark red on light schemes, light red on dark: readable either way.
      ...(key === 'Clear' ? { color: DANGER_TEXT, borderColor: DANGER_TEXT } : {}),
      paddingInline: rem(0),
      fontSize: rem(key.length > 1 ? 20 : 28),
      fontWeight: 800,
      height: rem(58),
    },
  );

/**
 * The vehicle number: Mantine's TextInput (size xl) as its plain label, input and error, with
 * Mantine's classes and variables (h57ka): large, bold and centred, the error under it in bold.
 */
function NumberField({
  ref,
  value,
  onChange,
  error,
}: {
  ref: Ref<HTMLInputElement>;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  error: string | null;
}) {
  const id = useId();
  const invalid = error !== null || undefined;
  return (
    <div
      className={`${Input.classes.root} mantine-InputWrapper-root mantine-TextInput-root`}
      data-size="xl"
      data-error={invalid}
    >
      <label
        className={`${Input.classes.label} mantine-InputWrapper-label mantine-TextInput-label`}
        data-size="xl"
        htmlFor={id}
        id={`${id}-label`}
        style={NUMBER_LABEL}
      >
        Vehicle Number
      </label>
      <div
        className={`${Input.classes.wrapper} mantine-Input-wrapper mantine-TextInput-wrapper`}
        data-variant="default"
        data-size="xl"
        data-error={invalid}
        style={invalid ? NUMBER_WRAPPER_WITH_ERROR : NUMBER_WRAPPER}
      >
        <input
          ref={ref}
          className={`${Input.classes.input} mantine-Input-input mantine-TextInput-input`}
          data-variant="default"
          data-error={invalid}
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={error !== null}
          aria-describedby={invalid && `${id}-error`}
          id={id}
          value={value}
          onChange={onChange}
          style={NUMBER_INPUT}
        />
      </div>
      {error !== null && (
        <p
          className={`${Input.classes.error} mantine-InputWrapper-error mantine-TextInput-error`}
          data-size="xl"
          id={`${id}-error`}
          style={NUMBER_ERROR}
        >
          {error}
        </p>
      )}
    </div>
  );
}
const NUMBER_LABEL = {
  fontSize: 'var(--mantine-font-size-lg)',
  '--input-label-size': 'var(--mantine-font-size-xl)',
} as CSSProperties;
const NUMBER_WRAPPER = {
  '--input-height': 'var(--input-height-xl)',
  '--input-fz': 'var(--mantine-font-size-xl)',
} as CSSProperties;
const NUMBER_WRAPPER_WITH_ERROR = {
  '--input-margin-bottom': 'calc(var(--mantine-spacing-xs) / 2)',
  ...NUMBER_WRAPPER,
} as CSSProperties;
const NUMBER_INPUT: CSSProperties = {
  height: 52,
  minHeight: 52,
  fontSize: 32,
  fontWeight: 800,
  letterSpacing: 2,
  textAlign: 'center',
};
const NUMBER_ERROR = {
  fontSize: 'var(--mantine-font-size-md)',
  fontWeight: 700,
  '--input-error-size': `calc(var(--mantine-font-size-xl) - ${rem(2)})`,
} as CSSProperties;

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
  const theme = useMantineTheme();
  const keys = useMemo(() => KEYS.map((key) => ({ key, look: keyLook(theme, key) })), [theme]);

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

  const onKey = (key: Key) => {
    if (key === 'Clear') type('');
    else if (key === 'Enter') submit();
    else type(`${vehicleNumber}${key}`.slice(0, 12));
  };

  return (
    // Mantine's Card, Stack, Title, TextInput, SimpleGrid and Buttons as their plain elements, with
    // their classes, attributes and variables (issue 57, h57ka): the same look from Mantine's
    // stylesheet, drawn without about a hundred of Mantine's components and the five <style>
    // elements of their responsive props, nor a render again for the field's id (Mantine's `useId`
    // sets state in a layout effect, inside the commit that draws the keypad).
    <section
      className={`${Card.classes.root} mantine-Card-root ${Paper.classes.root} mantine-Paper-root`}
      data-with-border
      style={CARD}
      aria-labelledby="add-vehicle-title"
    >
      <form onSubmit={submit} noValidate>
        {/* Tight enough that the keypad and Add to Queue stay on a 1024×768 tablet's first screen
            under five alerts' banner, and on a phone's under two (issue 50). */}
        <div className={STACK} style={GAP_XS}>
          <h2
            className={`${Title.classes.root} mantine-Title-root ${classes.title}`}
            data-order={2}
            style={H2}
            id="add-vehicle-title"
          >
            Add Vehicle to Queue
          </h2>
          {/* Not Mantine's SegmentedControl, which measures itself in the keypad's first commit (h57v). */}
          <SegmentedRadios
            fullWidth
            label="Vehicle type"
            value={vehicleType}
            onChange={setVehicleType}
            data={VEHICLE_TYPES}
          />
          <NumberField
            ref={input}
            value={vehicleNumber}
            onChange={(event) => type(event.currentTarget.value)}
            error={error}
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
          {/* biome-ignore lint/a11y/useSemanticElements: the group Mantine's SimpleGrid drew (a fieldset draws a border and a legend's place) */}
          <div
            className={`${SimpleGrid.classes.root} mantine-SimpleGrid-root`}
            style={KEYPAD}
            role="group"
            aria-label="Keypad"
          >
            {keys.map(({ key, look }) => (
              <button key={key} type="button" {...look} onClick={() => onKey(key)}>
                <ButtonLabel>{key}</ButtonLabel>
              </button>
            ))}
          </div>
          <PlainButton type="submit" size="xl" fullWidth style={ADD}>
            {sending > 0 ? 'Adding...' : 'Add to Queue'}
          </PlainButton>
        </div>
      </form>
    </section>
  );
}
