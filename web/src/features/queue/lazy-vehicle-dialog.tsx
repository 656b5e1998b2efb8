import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import type { VehicleDialog } from './vehicle-dialog';

let loaded: typeof VehicleDialog | undefined;

/**
 * The vehicle details dialog, fetched with the first tap on a card rather than with the screen
 * (the queue screens' first load stays within its budget). The service worker keeps its code for
 * a screen without a connection; should it still be missing (a tablet that went offline before
 * its service worker was ready), the tap says so and the next one tries again: the screen never
 * breaks.
 */
export const useVehicleDialog = () => {
  const [Dialog, setDialog] = useState(() => loaded);
  // The same function at each render (issue 57, h57r): the cards it is handed to are memoised.
  const load = useCallback(() => {
    if (loaded) return;
    import('./vehicle-dialog').then(
      (module) => {
        loaded = module.VehicleDialog;
        setDialog(() => module.VehicleDialog);
      },
      () =>
        notifications.show({
          color: 'red',
          title: 'Could not open the details',
          message: 'They need a connection this once: try again when back online.',
        }),
    );
  }, []);
  return { Dialog, load };
};
