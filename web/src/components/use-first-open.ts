import { useEffect, useState } from 'react';

/**
 * For a dialog a screen may never open (issue 57): `mounted` is false until it is first asked
 * for, so a closed Modal (its portal, its scroll lock, its transition) is no part of the screen's
 * first draw; once asked for it is mounted closed, then `opened` the next moment, so it fades in
 * as before, and it stays mounted to fade out.
 */
export const useFirstOpen = (open: boolean) => {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (open && !mounted) setMounted(true);
  }, [open, mounted]);
  return { mounted: mounted || open, opened: mounted && open };
};
