import { Notifications } from '@mantine/notifications';

/**
 * Where toasts show. As the specification has them: one at a time, 5 s, at most 420 px wide, at
 * the top; an answer to the user's own action goes before live announcements (lib/toasts.ts).
 * Loaded beside a screen's code, not before it (`App`).
 */
export function Toasts() {
  return <Notifications limit={1} autoClose={5000} containerWidth={420} position="top-center" />;
}
