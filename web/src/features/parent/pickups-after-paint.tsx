import { Alert } from '@mantine/core';
import { startTransition, useEffect, useState } from 'react';
import type { PickupCards } from './authorized-pickups';
import { useParentTexts } from './i18n';
import { usePainted } from './largest-paint';

type Students = ReadonlyArray<{ id: number; firstName: string; lastName: string }>;

/** A failed load of their code is tried again after this, doubled each time, up to `RETRY_MAX_MS`. */
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

let loaded: typeof PickupCards | undefined;

/**
 * The trusted adults' cards' code, fetched once the page above them has been painted (issue
 * 57): once the browser reports the dashboard's largest paint (`painted`; h57k: fetched in the
 * task after the painting frame, their chunks could end before the paint was reported, and
 * Lighthouse counted them in it), drawn once the chunk has come. The cards (three fields, three radios and a button a child)
 * lie below the children and their change forms, off a phone's first screen: neither their
 * code (Mantine's Radio, which brings the Combobox's and the Popover's chunks) nor their drawing
 * is on the first paint's path; they are drawn in a transition (React renders it in slices).
 * Should the code not come (a dropped connection), the card says the list is being retried, and
 * it is.
 */
const usePickupCards = (painted: boolean) => {
  const [cards, setCards] = useState<{ Cards?: typeof PickupCards; failed: boolean }>(() => ({
    Cards: loaded,
    failed: false,
  }));
  useEffect(() => {
    if (loaded || !painted) return;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = (wait: number) => {
      import('./authorized-pickups').then(
        (module) => {
          loaded = module.PickupCards;
          if (!stopped) startTransition(() => setCards({ Cards: module.PickupCards, failed: false }));
        },
        () => {
          if (stopped) return;
          setCards({ failed: true });
          retry = setTimeout(() => load(Math.min(wait * 2, RETRY_MAX_MS)), wait);
        },
      );
    };
    load(RETRY_FIRST_MS);
    return () => {
      stopped = true;
      clearTimeout(retry);
    };
  }, [painted]);
  return cards;
};

/**
 * For each of the parent's children, the other adults the family allows to collect them, and a
 * form to add one: drawn after the page's first paint (`usePickupCards`).
 */
export function AuthorizedPickups({ students }: { students: Students }) {
  const { t } = useParentTexts();
  const { Cards, failed } = usePickupCards(usePainted());
  if (Cards) return <Cards students={students} />;
  return failed ? <Alert color="red">{t('pickups.loadFailed')}</Alert> : null;
}
