import { Alert, Button } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useDrawnWhenOpened } from '../../lib/drawn-when-opened';
import { loadedWhenNeeded } from '../../lib/loaded-when-needed';

/** The dialog and its camera's code: not before the keypad's paint (h57b). */
const scanDialog = loadedWhenNeeded(() => import('./scan-dialog'));

/** What the Scan says when its dialog's code could not be fetched. */
export const SCAN_NOT_LOADED = 'The scanner did not load. Check the connection, then press Scan again.';

/**
 * The front screen's Scan: opens the camera in a dialog (typing stays as it is). The dialog's code
 * comes once the screen is painted and the browser idle, or with the first Scan if that is sooner.
 */
export function ScanPlacards({ sessionId, schoolId }: { sessionId: number; schoolId: number }) {
  const [open, setOpen] = useState(false);
  const [notLoaded, setNotLoaded] = useState(false);
  const code = scanDialog.useLoaded(open);
  useEffect(() => scanDialog.ahead(), []);
  useEffect(() => {
    if (!code.failed) return;
    setOpen(false);
    setNotLoaded(true);
  }, [code.failed]);
  const ScanDialog = code.loaded?.ScanDialog;
  // Not drawn with the keypad: from the first Scan on (h57v), once its code has come.
  const dialog = useDrawnWhenOpened(open && ScanDialog !== undefined);
  return (
    <>
      <Button
        variant="default"
        size="lg"
        fullWidth
        onClick={() => {
          setNotLoaded(false);
          setOpen(true);
        }}
      >
        Scan
      </Button>
      {notLoaded && (
        <Alert color="red" role="alert">
          {SCAN_NOT_LOADED}
        </Alert>
      )}
      {dialog.draw && ScanDialog && (
        <ScanDialog
          opened={dialog.opened}
          scanning={open}
          onClose={() => setOpen(false)}
          sessionId={sessionId}
          schoolId={schoolId}
        />
      )}
    </>
  );
}
