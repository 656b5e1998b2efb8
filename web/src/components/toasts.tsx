import { Notifications } from '@mantine/notifications';
import { TOASTS } from '../lib/toasts';

/**
 * Where toasts show, as the specification has them (`TOASTS`): an answer to the user's own
 * action goes before live announcements (lib/toasts.ts). Loaded with the first toast (`App`).
 */
export function Toasts() {
  return (
    <Notifications
      limit={TOASTS.limit}
      autoClose={TOASTS.autoClose}
      containerWidth={TOASTS.width}
      position={TOASTS.position}
    />
  );
}
