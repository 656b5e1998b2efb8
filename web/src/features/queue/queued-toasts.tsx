import { isUnregistered, vehicleQueuedToast } from '@curbside/domain';
import { Stack, Text } from '@mantine/core';
import { showLiveToast, vehicleToastSubject } from '../../lib/toasts';
import { useLiveEvent } from '../live/live';

/**
 * Announces every vehicle queued in the session ("Vehicle added successfully:", its details and
 * contacts), from the live event. Mounted by the queue list (`useQueueLive`) and, on the front
 * queue, with the keypad: the lists are drawn after the keypad's paint, and a car added in the
 * first moments after the screen opened was queued without its announcement (the event came
 * before any screen part listened). Two listeners on one screen show one toast: an announcement
 * replaces the one about the same car (`showLiveToast`). With the staff shell's code (every screen
 * that mounts it loads that first: `web/vite.config.ts`).
 */
export const useVehicleQueuedToasts = (sessionId: number) => {
  useLiveEvent('VEHICLE_QUEUED', (event) => {
    if (event.sessionId !== undefined && event.sessionId !== sessionId) return;
    const vehicle = event.data.vehicle;
    const registered = !isUnregistered(event.data.entry);
    const toast = vehicleQueuedToast(vehicle, registered);
    // One announcement per car: a refusal of that car on this screen takes it back (add-vehicle.tsx).
    showLiveToast(vehicleToastSubject(vehicle?.type ?? 'car', vehicle?.number ?? ''), {
      // Orange for a number not on the school's list (its last line says so).
      color: registered ? 'green.9' : 'orange.9',
      title: toast.title,
      message: (
        <Stack gap={0}>
          {toast.lines.map((line) => (
            <Text key={line} fz="md" c="var(--mantine-color-text)">
              {line}
            </Text>
          ))}
        </Stack>
      ),
    });
  });
};

/** `useVehicleQueuedToasts` as a part of a screen. */
export function VehicleQueuedToasts({ sessionId }: { sessionId: number }) {
  useVehicleQueuedToasts(sessionId);
  return null;
}
