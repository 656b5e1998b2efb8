import type { ReportActor, ReportPickup } from '../record';

/** The people a report names: their names, as recorded or looked up. */

/** The user actors among `actors` that were recorded without a name (before names were kept): their ids. */
export const unnamedActorIds = (actors: Iterable<ReportActor | null>): number[] => {
  const ids = new Set<number>();
  for (const actor of actors) if (actor && !('kind' in actor) && !actor.name) ids.add(actor.id);
  return [...ids];
};

/** An actor with their name: as recorded, else from `names` (user id → name), else as it was. */
export const namedActor = <A extends ReportActor | null>(actor: A, names: ReadonlyMap<number, string>): A => {
  if (!actor || 'kind' in actor || actor.name) return actor;
  const name = names.get(actor.id);
  return name ? { ...actor, name } : actor;
};

/** Every actor a pickup names. */
export const pickupActors = (pickup: ReportPickup): Array<ReportActor | null> => [
  pickup.queuedBy,
  pickup.completedBy,
  ...pickup.students.map((student) => student.releasedBy),
];

/** A pickup whose actors carry their names (`namedActor`). */
export const withActorNames = (pickup: ReportPickup, names: ReadonlyMap<number, string>): ReportPickup => ({
  ...pickup,
  queuedBy: namedActor(pickup.queuedBy, names),
  completedBy: namedActor(pickup.completedBy, names),
  students: pickup.students.map((student) => ({
    ...student,
    releasedBy: namedActor(student.releasedBy, names),
  })),
});

/** A person as a report names them: their name (else their username), or the driver link / the schedule. */
export const actorDisplayName = (actor: ReportActor): string => {
  if ('kind' in actor) return actor.kind === 'driver link' ? 'Driver link' : 'Schedule';
  return actor.name || actor.username;
};
