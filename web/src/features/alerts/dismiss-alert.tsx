import type { Alert } from '@curbside/domain';
import { Alert as MantineAlert } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useDrawnWhenOpened } from '../../lib/drawn-when-opened';
import { loadedWhenNeeded } from '../../lib/loaded-when-needed';
import { useDismissAlert } from './alerts.queries';

/** The question's Modal: not before a screen's first paint (h57b). */
const questionCode = loadedWhenNeeded(() => import('./dismiss-emergency-modal'));

/** What is shown where the question would be when its code could not be fetched. */
export const QUESTION_NOT_LOADED =
  'The question before dismissing did not load. Check the connection, then press Dismiss again.';

/**
 * Asks before an emergency is dismissed (issue 50): a dismissed emergency
 * leaves every staff screen and stops sounding, so a stray tap must not do
 * it. "Keep it" is the safe answer and has the focus.
 */
export function DismissEmergencyDialog({
  alert,
  onKeep,
  onDismiss,
}: {
  alert: Pick<Alert, 'message'> | null;
  onKeep: () => void;
  onDismiss: () => void;
}) {
  const asked = alert !== null;
  const [notLoaded, setNotLoaded] = useState(false);
  const code = questionCode.useLoaded(asked);
  useEffect(() => questionCode.ahead(), []);
  useEffect(() => {
    if (asked) setNotLoaded(false);
  }, [asked]);
  useEffect(() => {
    if (!code.failed) return;
    setNotLoaded(true);
    onKeep();
  }, [code.failed, onKeep]);
  const Question = code.loaded?.DismissEmergencyModal;
  // Not drawn with the banner: from the first emergency asked about on (h57v), once its code came.
  const dialog = useDrawnWhenOpened(asked && Question !== undefined);
  if (notLoaded)
    return (
      <MantineAlert color="red" role="alert" withCloseButton onClose={() => setNotLoaded(false)}>
        {QUESTION_NOT_LOADED}
      </MantineAlert>
    );
  if (!dialog.draw || !Question) return null;
  return <Question opened={dialog.opened} alert={alert} onKeep={onKeep} onDismiss={onDismiss} />;
}

/**
 * Dismiss for the banner's rows: help at once, an emergency once confirmed.
 * `dialog` is rendered by the caller; `pending(id)` says which alert is on its way.
 */
export const useDismissAsking = () => {
  const dismiss = useDismissAlert();
  const [asking, setAsking] = useState<Alert | null>(null);
  return {
    ask: (alert: Alert) => (alert.type === 'emergency' ? setAsking(alert) : dismiss.mutate(alert)),
    pending: (id: number) => dismiss.isPending && dismiss.variables?.id === id,
    dialog: (
      <DismissEmergencyDialog
        alert={asking}
        onKeep={() => setAsking(null)}
        onDismiss={() => {
          if (asking) dismiss.mutate(asking);
          setAsking(null);
        }}
      />
    ),
  };
};
