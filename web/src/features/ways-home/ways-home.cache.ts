import type { LiveEventData } from '@curbside/api';
import { changeOccursOn, type DismissalChangeView, type PlanEntry } from '@curbside/domain';

/**
 * The office's lists patched from the live events (issue 51), without React:
 * the day's plan takes the entries a `DISMISSAL_PLAN_CHANGED` carries; a list
 * of changes takes the change a `DISMISSAL_CHANGE_UPDATED` carries, or drops
 * it when it no longer belongs there.
 */

type DayPlan = { date: string; students: PlanEntry[] };

export const patchDayPlan = (
  plan: DayPlan | undefined,
  event: LiveEventData['DISMISSAL_PLAN_CHANGED'],
): DayPlan | undefined => {
  if (!plan || plan.date !== event.date) return plan;
  const changed = new Map(event.students.map((entry) => [entry.studentId, entry]));
  return { ...plan, students: plan.students.map((entry) => changed.get(entry.studentId) ?? entry) };
};

/** Where a change belongs: the office's queue (pending ones), or a day's list (the changes that fall on it). */
export type ChangeList = { kind: 'pending' } | { kind: 'day'; date: string };

const belongs = (change: DismissalChangeView, list: ChangeList) =>
  list.kind === 'pending' ? change.status === 'pending' : changeOccursOn(change, list.date);

const byDate = (a: DismissalChangeView, b: DismissalChangeView) =>
  a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt);

export const patchChanges = (
  current: { changes: DismissalChangeView[] } | undefined,
  change: DismissalChangeView,
  list: ChangeList,
): { changes: DismissalChangeView[] } | undefined => {
  if (!current) return current;
  const others = current.changes.filter((found) => found.id !== change.id);
  return { changes: belongs(change, list) ? [...others, change].sort(byDate) : others };
};
