import { BUS_LINK_MISSING } from '@curbside/domain';
import { Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { MUTED_TEXT } from '../../lib/theme';
import { BusMap } from './bus-map';
import { linkToken } from './bus-socket';
import { ConnectionBadge } from './connection-badge';
import { LinkMissing } from './link-missing';
import { useFleet } from './use-fleet';

const TITLE = 'Bus Tracking';

/**
 * `/bus-tracking?t=…` (specification §2 "Bus tracking page"): the school's
 * buses live on the map, opened from the school's map link (no login).
 */
export function BusTrackingPage() {
  const [token] = useState(linkToken);
  const { buses, linkValid, socket } = useFleet(token);
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    document.title = `${TITLE} · Curbside`;
    const follow = () => setFullscreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', follow);
    return () => document.removeEventListener('fullscreenchange', follow);
  }, []);
  if (linkValid === false) return <LinkMissing title={TITLE} text={BUS_LINK_MISSING.map} />;
  if (linkValid === null) return <Loader m="xl" aria-label="Loading the bus map" />;
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return (
    <Container size="lg" py="md" px={{ base: 'xs', sm: 'md' }} component="main">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={1}>{TITLE}</Title>
          <Group gap="sm">
            <ConnectionBadge status={socket.status} retries={socket.retries} />
            <Button variant="default" onClick={toggleFullscreen}>
              {fullscreen ? 'Exit Fullscreen' : 'Fullscreen'}
            </Button>
          </Group>
        </Group>
        <BusMap buses={buses} live={socket.status === 'open'} />
        <Text c={MUTED_TEXT}>
          Location updates come about every second. A bus turns grey when it has not sent its position for a
          minute, and leaves the map after five minutes.
        </Text>
      </Stack>
    </Container>
  );
}
