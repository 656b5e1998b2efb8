import type { DisplayBoard } from '@curbside/domain';
import { Badge, Box, Button, Group, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { linkToken, useBusSocket } from '../buses/bus-socket';
import { LinkMissing } from '../buses/link-missing';
import { Board } from './board';
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
 * called or whom a teacher released, in very large type (smaller, then in
 * pages, when they do not fit the screen), grouped by batch and lane, newest
 * on top; a student leaves when picked up. Its own live connection (the display link,
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
    <Box
      component="main"
      p="xl"
      h="100dvh"
      style={{ display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
    >
      <Group justify="space-between" mb="lg" style={{ flexShrink: 0 }}>
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
      <Board groups={groups} texts={texts} />
    </Box>
  );
}
