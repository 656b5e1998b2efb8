import type { DisplayBoard } from '@curbside/domain';
import { Badge, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { linkToken, useBusSocket } from '../buses/bus-socket';
import { LinkMissing } from '../buses/link-missing';
import { DISPLAY_TEXTS, type DisplayLanguage, displayLanguageOf } from './display-texts';

/** Keeps the screen on while the page shows (the Wake Lock API where the browser has it). */
const useWakeLock = () => {
  useEffect(() => {
    const wakeLock = (navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<unknown> } })
      .wakeLock;
    if (!wakeLock) return;
    let lock: { release(): Promise<void> } | null = null;
    const take = () => {
      if (document.visibilityState !== 'visible') return;
      wakeLock
        .request('screen')
        .then((taken) => {
          lock = taken as { release(): Promise<void> };
        })
        .catch(() => {});
    };
    take();
    // A lock is released when the page is hidden: taken again when it shows.
    document.addEventListener('visibilitychange', take);
    return () => {
      document.removeEventListener('visibilitychange', take);
      lock?.release().catch(() => {});
    };
  }, []);
};

/**
 * `/display?t=…` (issue 32): the hallway TV. The students whose car has been
 * called, in very large type, grouped by batch and lane, newest on top; a
 * student leaves when picked up. Its own live connection (the display link,
 * no sign-in to expire) reconnects by itself and asks for the board again
 * each time it opens.
 */
export function DisplayPage() {
  const [token] = useState(linkToken);
  const [language, setLanguage] = useState<DisplayLanguage>(() =>
    displayLanguageOf(location.search, navigator.languages ?? []),
  );
  const [board, setBoard] = useState<DisplayBoard | null>(null);
  const [refused, setRefused] = useState(false);
  const texts = DISPLAY_TEXTS[language];
  useWakeLock();
  useEffect(() => {
    document.documentElement.lang = language;
    document.title = texts.title;
  }, [language, texts.title]);
  const { status, retries, send } = useBusSocket(token ? `?t=${token}` : null, (event) => {
    if (event.type === 'DISPLAY_BOARD') setBoard(event.data);
  });
  const opened = useRef(false);
  const sendRef = useRef(send);
  sendRef.current = send;
  // Each time the connection opens (first, and after every reconnect): the board as it is now.
  useEffect(() => {
    if (status === 'open') {
      opened.current = true;
      sendRef.current({ type: 'DISPLAY_REFRESH' });
      setRefused(false);
    }
  }, [status]);
  // A link that never opens (rotated, mistyped): after a few tries, say so.
  useEffect(() => {
    if (status === 'closed' && retries >= 3 && !opened.current) setRefused(true);
  }, [status, retries]);

  if (!token || refused) return <LinkMissing title={texts.missingTitle} text={texts.missing} />;
  const groups = board?.groups ?? [];
  return (
    <Box component="main" p="xl" mih="100vh">
      <Group justify="space-between" mb="lg">
        <Title order={1} fz={56}>
          {texts.title}
        </Title>
        <Group>
          {status !== 'open' && (
            <Badge size="xl" color="orange" role="status">
              {texts.connecting}
            </Badge>
          )}
          <Button variant="default" size="md" onClick={() => setLanguage(language === 'en' ? 'es' : 'en')}>
            {texts.language}
          </Button>
        </Group>
      </Group>
      {board && groups.length === 0 && (
        <Text fz={48} ta="center" mt={120} role="status">
          {board.sessionId === null ? texts.noSession : texts.empty}
        </Text>
      )}
      <Stack gap="lg" aria-live="polite">
        {groups.map((group) => (
          <Paper
            key={`${group.lane}-${group.batchNumber ?? 'ready'}`}
            component="section"
            withBorder
            p="lg"
            aria-label={`${group.batchNumber === null ? texts.noBatch : `${texts.batch} #${group.batchNumber}`} · ${texts[group.lane]}`}
          >
            <Group gap="md" mb="sm">
              <Title order={2} fz={44}>
                {group.batchNumber === null ? texts.noBatch : `${texts.batch} #${group.batchNumber}`}
              </Title>
              <Badge size="xl" variant="light">
                {texts[group.lane]}
              </Badge>
            </Group>
            <Stack gap="xs">
              {group.vehicles.map((vehicle) => (
                <Group key={vehicle.vehicleNumber} gap="xl" wrap="nowrap" align="baseline">
                  <Text fz={40} fw={700} miw={260}>
                    {texts.vehicle} {vehicle.vehicleNumber}
                  </Text>
                  <Text fz={64} fw={800} lh={1.1}>
                    {vehicle.students
                      .map((student) => `${student.firstName} ${student.lastInitial}.`)
                      .join(', ')}
                  </Text>
                </Group>
              ))}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Box>
  );
}
