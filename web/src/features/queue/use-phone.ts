import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (48em, 768 px): a phone held upright. */
export const PHONE_QUERY = '(max-width: 47.99em)';

/** Whether the screen is phone-sized, known on the first render (no flash of the tablet layout). */
export const usePhone = () => useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
