import type { Vehicle, VehicleType } from '../queue';
import type { RowError } from '../roster-import-basics';
import { emptyPlan, type PlanOutcome, repeats, sameFields, Tracker, tempIds } from './plan';
import type { ImportRow } from './rows';

/** The plan of a vehicles file. */

export interface VehicleImportContext {
  schoolId: number;
  vehicles: readonly Vehicle[];
}

const VEHICLE_FIELDS = [
  'make',
  'model',
  'color',
  'licensePlate',
  'parentName',
  'parentPhone',
  'notes',
  'active',
] as const;

/** A vehicles file: each row creates or updates a car or bus (matched on type and number); its students stay. */
export const planVehicleImport = (
  rows: ReadonlyArray<ImportRow<'vehicles'>>,
  context: VehicleImportContext,
): PlanOutcome => {
  const errors: RowError[] = [];
  const plan = emptyPlan();
  const nextId = tempIds();
  const vehicles = new Tracker<Vehicle>();
  const keyOf = (type: VehicleType, number: string) => `${type}#${number.toUpperCase()}`;
  const byKey = new Map(context.vehicles.map((v) => [keyOf(v.type, v.number), v]));
  const repeated = repeats();
  for (const row of rows) {
    const key = keyOf(row.type, row.number);
    const earlier = repeated(row.row, [key]);
    if (earlier !== undefined) {
      errors.push({ row: row.row, column: 'number', message: `Same ${row.type} as row ${earlier}` });
      continue;
    }
    const fields = {
      make: row.make,
      model: row.model,
      color: row.color,
      licensePlate: row.licensePlate,
      parentName: row.parentName,
      parentPhone: row.parentPhone,
      notes: row.notes,
      active: true,
    };
    const existing = byKey.get(key);
    if (existing) {
      const vehicle = vehicles.edit(existing);
      if (sameFields(vehicle, { ...vehicle, ...fields }, VEHICLE_FIELDS)) plan.counts.unchanged++;
      else plan.counts.updated++;
      Object.assign(vehicle, fields);
    } else {
      vehicles.add({
        id: nextId('vehicle'),
        schoolId: context.schoolId,
        number: row.number,
        type: row.type,
        alternateContactName: null,
        alternateContactPhone: null,
        studentIds: [],
        ...fields,
      });
      plan.counts.created++;
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  plan.vehicles = vehicles.result();
  return { ok: true, plan };
};
