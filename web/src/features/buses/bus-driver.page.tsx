import { routes } from '@curbside/api';
import { BUS_DRIVER, BUS_LINK_MISSING, type Bus, type BusLocation } from '@curbside/domain';
import { Badge, Button, Card, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { apiWithLink } from '../../lib/api';
import { errorMessage, HttpError } from '../../lib/http';
import { MUTED_TEXT } from '../../lib/theme';
import { HOLD_HINT, HoldButton } from '../alerts/hold-button';
import { BusField } from './bus-driver-field';
import { linkToken, useBusSocket } from './bus-socket';
import { ConnectionBadge } from './connection-badge';
import { driverQueries } from './driver.queries';
import { DriverAlertSeen, useDriverAlertSeen } from './driver-alert-seen';
import { mph } from './fleet';
import { LinkMissing } from './link-missing';
import { AlertNotSent, LinkReplaced, replacedLink, useSchoolPhone } from './school-phone';

const TITLE = 'Bus Driver';

type WakeState = 'active' | 'off' | 'unsupported';

const ALERTS = {
  help: {
    kind: 'help request',
    priority: 'medium',
    title: 'Help Request',
    sent: {
      title: 'Help Request Sent',
      message: 'Your help request has been sent to the school administration.',
    },
    failed: 'Failed to send help request. Please try again.',
  },
  emergency: {
    kind: 'emergency alert',
    priority: 'critical',
    title: 'Emergency Alert',
    sent: {
      title: 'Emergency Alert Sent',
      message: 'Emergency alert has been sent to school administration.',
    },
    failed: 'Failed to send emergency alert. Please try again.',
  },
} as const;

/** Why an alert was not sent, in a sentence: the server's reason, or no connection. */
const notSentReason = (error: unknown) =>
  error instanceof HttpError
    ? errorMessage(error)
    : 'The page could not reach the school: there may be no connection here.';

const time = (ms: number) =>
  new Date(ms).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/**
 * `/bus-driver?t=…` (specification §2 "Bus driver page", §4 "Bus tracking
 * (driver)"): opened from the school's driver link on the driver's phone,
 * it shares the chosen bus's position every time the phone has a new one,
 * keeps the screen awake, sends a heartbeat every 15 s, and raises Help or
 * Emergency alerts for the school's staff, a bus chosen or not. When an alert
 * cannot be sent, it offers the school's phone to call; a link the office
 * replaced says so at once and stops tracking (issue 50).
 */
export function BusDriverPage() {
  const [token] = useState(linkToken);
  const fleet = useQuery(driverQueries.fleet(token));
  const phone = useSchoolPhone(token);
  /** The office replaced this link (issue 50): learnt from any answer to it. */
  const [replaced, setReplaced] = useState(false);
  const isReplaced = replaced || replacedLink(fleet.error) !== null;
  const invalid =
    token === null || (fleet.error instanceof HttpError && fleet.error.status === 401 && !isReplaced);
  const seen = useDriverAlertSeen();
  const socket = useBusSocket(invalid || isReplaced || !fleet.data ? null : `?t=${token}`, seen.onEvent);
  /** The last alert that could not be sent, and why: the page offers the school's number (issue 50). */
  const [notSent, setNotSent] = useState<{ kind: string; reason: string } | null>(null);
  const [busId, setBusId] = useState<string | null>(null);
  const [tracking, setTracking] = useState(false);
  /** A transient GPS error (no fix under a bridge): tracking goes on and says so until the next fix. */
  const [signalLost, setSignalLost] = useState(false);
  const [locations, setLocations] = useState<BusLocation[]>([]);
  const [wake, setWake] = useState<WakeState>(
    typeof navigator !== 'undefined' && 'wakeLock' in navigator ? 'off' : 'unsupported',
  );
  const watch = useRef<number | null>(null);
  const heartbeat = useRef<ReturnType<typeof setInterval> | null>(null);
  const lock = useRef<WakeLockSentinel | null>(null);
  const sendRef = useRef(socket.send);
  sendRef.current = socket.send;
  // Issue 57: the page is drawn from the fleet in a transition, which React renders in slices (the
  // phone's main thread is never blocked long); meanwhile the loader stays.
  const buses = useDeferredValue(fleet.data);
  const bus = fleet.data?.find((candidate) => candidate.busId === busId) ?? null;
  const current = locations[0] ?? null;
  const options = useMemo(
    () =>
      (buses ?? []).map((item: Bus) => ({
        value: item.busId,
        label: item.route ? `${item.name} - ${item.route}` : item.name,
      })),
    [buses],
  );

  const acquireWakeLock = async () => {
    if (!('wakeLock' in navigator)) return;
    try {
      lock.current = await navigator.wakeLock.request('screen');
      setWake('active');
      lock.current.addEventListener('release', () => setWake('off'));
    } catch {
      setWake('off');
    }
  };

  const stop = (announce = true) => {
    if (watch.current !== null) navigator.geolocation.clearWatch(watch.current);
    watch.current = null;
    if (heartbeat.current) clearInterval(heartbeat.current);
    heartbeat.current = null;
    void lock.current?.release().catch(() => {});
    lock.current = null;
    if (announce && busId) sendRef.current({ type: 'BUS_TRACKING_STOPPED', data: { busId } });
    setSignalLost(false);
    setTracking(false);
  };

  const start = () => {
    if (!bus) {
      notifications.show({ color: 'red', title: 'Error', message: 'Please select a bus first' });
      return;
    }
    if (!('geolocation' in navigator)) {
      notifications.show({
        color: 'red',
        title: 'Error',
        message: 'Geolocation is not supported by this browser',
      });
      return;
    }
    setTracking(true);
    void acquireWakeLock();
    heartbeat.current = setInterval(
      () => sendRef.current({ type: 'heartbeat', busId: bus.busId }),
      BUS_DRIVER.heartbeatMs,
    );
    watch.current = navigator.geolocation.watchPosition(
      (position) => {
        const { latitude, longitude, speed, accuracy, heading } = position.coords;
        const location: BusLocation = {
          latitude,
          longitude,
          ...(speed !== null && Number.isFinite(speed) ? { speed } : {}),
          ...(Number.isFinite(accuracy) ? { accuracy } : {}),
          ...(heading !== null && Number.isFinite(heading) ? { heading } : {}),
          timestamp: position.timestamp || Date.now(),
        };
        setSignalLost(false);
        setLocations((list) => [location, ...list].slice(0, BUS_DRIVER.keptLocations));
        sendRef.current({ type: 'BUS_LOCATION_UPDATE', data: { busId: bus.busId, location } });
      },
      (error) => {
        // A phone that stands still reports no new position within the 10 s timeout: the bus is
        // waiting, not lost. Tracking goes on; a refused permission or no position at all stops it.
        if (error.code === error.TIMEOUT) return;
        // No position for now (a bridge, a tunnel): keep watching, and resume on the next fix (issue 32).
        if (error.code !== error.PERMISSION_DENIED) {
          setSignalLost(true);
          return;
        }
        notifications.show({ color: 'red', title: 'Error', message: `Location error: ${error.message}` });
        stop();
      },
      BUS_DRIVER.watch,
    );
  };

  // What the bus card calls, the same functions from render to render (the card is drawn again
  // only when what it shows changes, not when the connection's badge does; issue 57).
  const actions = useRef({ start, stop });
  actions.current = { start, stop };
  const onStart = useCallback(() => actions.current.start(), []);
  const onStop = useCallback(() => actions.current.stop(), []);

  // The screen lock ends when the page is hidden: take it again when it shows, while tracking.
  useEffect(() => {
    if (!tracking) return;
    const again = () => {
      if (document.visibilityState === 'visible') void acquireWakeLock();
    };
    document.addEventListener('visibilitychange', again);
    return () => document.removeEventListener('visibilitychange', again);
  });

  // Leaving the page stops the watch and the heartbeat.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on unmount only
  useEffect(() => () => stop(false), []);

  // The connection closed (the office rotating the links closes it): ask the link at once whether
  // it still opens the page, so a replaced one says so now, not after the retries. A socket not
  // opened yet (no buses yet: `retries` 0) has not closed: the buses that just came are not read
  // again (the early script's answer came before the socket was asked for; issue 57).
  // biome-ignore lint/correctness/useExhaustiveDependencies: on the connection's state only
  useEffect(() => {
    if (socket.status === 'closed' && socket.retries > 0 && fleet.data && !isReplaced) void fleet.refetch();
  }, [socket.status]);

  // A replaced link tracks nothing more.
  // biome-ignore lint/correctness/useExhaustiveDependencies: when the link turns out replaced
  useEffect(() => {
    if (isReplaced && tracking) stop(false);
  }, [isReplaced]);

  // Help and Emergency do not wait for a bus to be chosen (issue 50): the school hears "a bus driver".
  const alert = useMutation({
    mutationFn: (type: 'help' | 'emergency') => {
      const kind = ALERTS[type];
      const from = bus ? `${bus.name}${bus.route ? ` (${bus.route})` : ''}` : 'a bus driver (no bus chosen)';
      return apiWithLink(token as string, routes.createAlert, {
        body: {
          type,
          priority: kind.priority,
          title: kind.title,
          message: `${kind.title} from ${from}`,
          source: 'bus_driver',
          metadata: {
            busId: bus?.busId ?? null,
            busName: bus?.name ?? '',
            location: current ? { latitude: current.latitude, longitude: current.longitude } : null,
          },
        },
      });
    },
    onSuccess: ({ alert }, type) => {
      setNotSent(null);
      seen.sent(alert);
      notifications.show({ color: 'green', ...ALERTS[type].sent });
    },
    onError: (error, type) => {
      if (replacedLink(error)) setReplaced(true);
      setNotSent({ kind: ALERTS[type].kind, reason: notSentReason(error) });
      notifications.show({ color: 'red', title: 'Error', message: ALERTS[type].failed });
    },
  });

  if (isReplaced) return <LinkReplaced title={TITLE} phone={phone} />;
  if (invalid) return <LinkMissing title={TITLE} text={BUS_LINK_MISSING.driver} />;
  if (!buses) return <Loader m="xl" aria-label="Loading the buses" />;

  return (
    <Container size="xs" py="md" px="sm" component="main">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={1}>{TITLE}</Title>
          <ConnectionBadge status={socket.status} retries={socket.retries} />
        </Group>
        <Badge
          size="lg"
          variant={wake === 'active' ? 'filled' : 'default'}
          color="green.9"
          aria-label="Screen lock"
        >
          {wake === 'active'
            ? 'Screen stays on'
            : wake === 'off'
              ? 'Screen may turn off'
              : 'Screen lock not supported'}
        </Badge>
        <BusChoice
          options={options}
          busId={busId}
          onChange={setBusId}
          tracking={tracking}
          signalLost={signalLost}
          onStart={onStart}
          onStop={onStop}
        />
        <AlertButtons sending={alert.isPending ? alert.variables : undefined} onHold={alert.mutate} />
        {notSent && <AlertNotSent kind={notSent.kind} reason={notSent.reason} phone={phone} />}
        <DriverAlertSeen last={seen.last} />
        <Locations current={current} locations={locations} />
        {HOW_TO}
      </Stack>
    </Container>
  );
}

/**
 * The page's parts below its header, each drawn again only when what it shows changes (issue 57):
 * the connection's badge and the school's phone change while the page is on screen, and the
 * Select drawn again with them was most of the phone's main-thread work after the first paint.
 */
const BusChoice = memo(function BusChoice({
  options,
  busId,
  onChange,
  tracking,
  signalLost,
  onStart,
  onStop,
}: {
  options: Array<{ value: string; label: string }>;
  busId: string | null;
  onChange: (busId: string | null) => void;
  tracking: boolean;
  signalLost: boolean;
  onStart: () => void;
  onStop: () => void;
}) {
  return (
    <Card withBorder p="md">
      <Stack gap="md">
        <BusField options={options} busId={busId} onChange={onChange} disabled={tracking} />
        {tracking && signalLost && (
          <Text role="status" fw={700} c="orange.9">
            GPS signal lost — still trying
          </Text>
        )}
        {tracking ? (
          <Button size="xl" color="red.8" onClick={onStop} fullWidth>
            Stop Tracking
          </Button>
        ) : (
          <Button size="xl" color="green.9" onClick={onStart} fullWidth>
            Start Tracking
          </Button>
        )}
      </Stack>
    </Card>
  );
});

const AlertButtons = memo(function AlertButtons({
  sending,
  onHold,
}: {
  /** The alert being sent, if one is. */
  sending: 'help' | 'emergency' | undefined;
  onHold: (type: 'help' | 'emergency') => void;
}) {
  // Held, not tapped: a phone on a dashboard mount gets tapped by accident.
  return (
    <SimpleGrid cols={2} spacing="sm">
      {(['help', 'emergency'] as const).map((type) => (
        <HoldButton
          key={type}
          type={type}
          label={type === 'help' ? 'Help' : 'Emergency'}
          hint={sending === type ? 'Sending...' : HOLD_HINT[type]}
          sending={sending === type}
          onHold={() => onHold(type)}
        />
      ))}
    </SimpleGrid>
  );
});

const Locations = memo(function Locations({
  current,
  locations,
}: {
  current: BusLocation | null;
  locations: BusLocation[];
}) {
  return (
    <>
      <Card withBorder p="md" component="section" aria-labelledby="current-location">
        <Stack gap={4}>
          <Title order={2} fz="h3" id="current-location">
            Current Location
          </Title>
          {current ? (
            <>
              <Text fz="lg">Latitude: {current.latitude.toFixed(6)}</Text>
              <Text fz="lg">Longitude: {current.longitude.toFixed(6)}</Text>
              {current.accuracy !== undefined && (
                <Text fz="lg">Accuracy: {Math.round(current.accuracy)} m</Text>
              )}
              {current.speed !== undefined && <Text fz="lg">Speed: {mph(current.speed).toFixed(1)} mph</Text>}
            </>
          ) : (
            <Text c={MUTED_TEXT}>No location yet.</Text>
          )}
        </Stack>
      </Card>
      <Card withBorder p="md" component="section" aria-labelledby="recent-locations">
        <Stack gap={4}>
          <Title order={2} fz="h3" id="recent-locations">
            Recent Locations
          </Title>
          {locations.length === 0 ? (
            <Text c={MUTED_TEXT}>None yet.</Text>
          ) : (
            <Stack component="ol" gap={2} m={0} pl="md" aria-label="Recent Locations">
              {locations.slice(0, BUS_DRIVER.shownLocations).map((location) => (
                <Text component="li" key={location.timestamp} ff="monospace" fz="sm">
                  {time(location.timestamp)} · {location.latitude.toFixed(6)}, {location.longitude.toFixed(6)}
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      </Card>
    </>
  );
});

const HOW_TO = (
  <Text c={MUTED_TEXT}>
    Choose your bus and press Start Tracking before you drive. Keep this page open: the school sees your bus
    on its map while you track. Hold Help or Emergency for a second to alert the school office.
  </Text>
);
