import { clockTimeText } from './school-clock';

/*
 * A family's change of the way home after the school's cutoff, on its own without zod (issue 57):
 * the parent dashboard tells this refusal apart from the others, on a phone whose first load
 * carries no zod; the change rules (dismissal-changes.ts), schemas and all, throw it.
 */

/** The 409 a family gets for today after the school's cutoff. */
export const cutoffMessage = (cutoff: string) =>
  `Changes for today close at ${clockTimeText(cutoff)}. Please call the school office.`;
