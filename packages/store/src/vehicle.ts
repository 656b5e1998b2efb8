import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  ConflictError,
  searchText,
  VEHICLE_TYPES,
  type Vehicle,
  type VehicleType,
  vehicleName,
} from '@curbside/domain';
import { putAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, queryAll, rosterReads } from './query';

/**
 * Vehicle: `SCHOOL#{schoolId}#VEHICLES` / `{type}#{NUMBER}`: the number is
 * unique per school and type, and the queue finds a vehicle by it in one
 * GetItem. Vehicle id → number: `VEHICLE#{id}` / `VEHICLE`, written with the
 * vehicle, so the roster edits a vehicle by id. `search` holds the lowercased
 * number, make, model, color, plate and contact. Deactivated vehicles keep
 * their item (`active: false`) and leave the lists and the car line; a new
 * vehicle may take a deactivated one's number.
 */
const partition = (schoolId: number) => `SCHOOL#${schoolId}#VEHICLES`;
/** A vehicle's key by number (for a read beside others: `visit-reads.ts`). */
export const vehicleKey = (schoolId: number, type: VehicleType, number: string) => ({
  pk: partition(schoolId),
  sk: `${type}#${number.toUpperCase()}`,
});
/** A vehicle's id item: its school, type and number (for a read beside others: `visit-reads.ts`). */
export const vehicleIdKey = (id: number) => ({ pk: `VEHICLE#${id}`, sk: 'VEHICLE' });

const itemOf = (vehicle: Vehicle) => ({
  ...vehicleKey(vehicle.schoolId, vehicle.type, vehicle.number),
  entity: 'vehicle',
  search: searchText(
    vehicle.number,
    vehicle.make,
    vehicle.model,
    vehicle.color,
    vehicle.licensePlate,
    vehicle.parentName,
    vehicle.parentPhone,
  ),
  ...vehicle,
});
const pointerOf = (vehicle: Vehicle) => ({
  ...vehicleIdKey(vehicle.id),
  entity: 'vehicleId',
  schoolId: vehicle.schoolId,
  type: vehicle.type,
  number: vehicle.number,
});

/** A vehicle as stored; fields older items lack get their defaults. */
export const toVehicle = (item: Record<string, unknown>): Vehicle => {
  const vehicle = stripKeys<Vehicle>(item);
  return { ...vehicle, active: vehicle.active ?? true, studentIds: vehicle.studentIds ?? [] };
};

/** A vehicle's key is free, or held by a deactivated vehicle. */
const FREE = 'attribute_not_exists(pk) OR active = :inactive';

const taken = (vehicle: Pick<Vehicle, 'type' | 'number'>) =>
  new ConflictError(`${vehicleName(vehicle.type, vehicle.number)} is already registered`);

const reads = rosterReads({
  partition,
  isKey: (key) =>
    VEHICLE_TYPES.some((type) => key.sk.startsWith(`${type}#`) && key.sk.length > type.length + 1),
  toRecord: toVehicle,
});

export const vehicles = {
  /** A school's active buses, id and number only (the ways home a plan may name), by number. */
  async buses(db: Db, schoolId: number): Promise<Array<{ id: number; number: string }>> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :bus)',
      ExpressionAttributeValues: { ':pk': partition(schoolId), ':bus': 'bus#' },
      ProjectionExpression: 'id, #number, active',
      ExpressionAttributeNames: { '#number': 'number' },
    });
    return items
      .filter((item) => item.active !== false)
      .map((item) => ({ id: item.id as number, number: item.number as string }))
      .sort((a, b) => a.number.localeCompare(b.number, undefined, { numeric: true }));
  },

  /** Registers a vehicle; 409 when an active vehicle of that type already has the number. */
  async create(db: Db, input: Omit<Vehicle, 'id'>): Promise<Vehicle> {
    const vehicle: Vehicle = { id: await nextId(db, 'vehicle'), ...input };
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: itemOf(vehicle),
                ConditionExpression: FREE,
                ExpressionAttributeValues: { ':inactive': false },
              },
            },
            { Put: { TableName: db.table, Item: pointerOf(vehicle) } },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw taken(vehicle);
      throw error;
    }
    return vehicle;
  },

  /** The active vehicle with this number (the queue's lookup); a deactivated one is not found. */
  async byNumber(db: Db, schoolId: number, type: VehicleType, number: string): Promise<Vehicle | undefined> {
    const vehicle = await vehicles.atNumber(db, schoolId, type, number);
    return vehicle?.active ? vehicle : undefined;
  },

  /** The vehicle holding this number, active or not. */
  async atNumber(db: Db, schoolId: number, type: VehicleType, number: string): Promise<Vehicle | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: vehicleKey(schoolId, type, number) }),
    );
    return Item ? toVehicle(Item) : undefined;
  },

  /**
   * A bus of the school by id, as its id item names it (its number), as a
   * keyed read (`keyed-read.ts`, issue 54: beside a release's sign-in;
   * consistent, as `get`): undefined for a car, another school's vehicle or none.
   */
  keyedBus(schoolId: number, id: number): KeyedRead<{ id: number; number: string } | undefined> {
    const at = vehicleIdKey(id);
    return {
      keys: [at],
      consistent: true,
      from: (found) => {
        const item = itemAt(found, at);
        return item?.schoolId === schoolId && item.type === 'bus'
          ? { id, number: item.number as string }
          : undefined;
      },
    };
  },

  /** A vehicle of the school by id (its number found through the id item). */
  async get(db: Db, schoolId: number, id: number): Promise<Vehicle | undefined> {
    const { Item: pointer } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: vehicleIdKey(id), ConsistentRead: true }),
    );
    if (!pointer || pointer.schoolId !== schoolId) return undefined;
    const { Item } = await db.doc.send(
      new GetCommand({
        TableName: db.table,
        Key: vehicleKey(schoolId, pointer.type as VehicleType, pointer.number as string),
        ConsistentRead: true,
      }),
    );
    // The number may have gone to a newer vehicle since this one was deactivated.
    return Item && Item.id === id ? toVehicle(Item) : undefined;
  },

  /**
   * Replaces a vehicle's fields, on condition that `before` (what the caller
   * read) still holds its number. A new number or type moves the item, in one
   * transaction with its id item; 409 when an active vehicle has the new number.
   */
  async update(db: Db, before: Vehicle, after: Vehicle): Promise<Vehicle> {
    const moved = before.type !== after.type || before.number.toUpperCase() !== after.number.toUpperCase();
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            ...(moved
              ? [
                  {
                    Delete: {
                      TableName: db.table,
                      Key: vehicleKey(before.schoolId, before.type, before.number),
                      ConditionExpression: 'id = :id',
                      ExpressionAttributeValues: { ':id': before.id },
                    },
                  },
                  {
                    Put: {
                      TableName: db.table,
                      Item: itemOf(after),
                      ConditionExpression: FREE,
                      ExpressionAttributeValues: { ':inactive': false },
                    },
                  },
                ]
              : [
                  {
                    Put: {
                      TableName: db.table,
                      Item: itemOf(after),
                      ConditionExpression: 'id = :id',
                      ExpressionAttributeValues: { ':id': before.id },
                    },
                  },
                ]),
            { Put: { TableName: db.table, Item: pointerOf(after) } },
          ],
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw moved
          ? taken(after)
          : new ConflictError('This vehicle was changed meanwhile. Refresh and try again.');
      }
      throw error;
    }
    return after;
  },

  /** Sets the students a vehicle collects (the vehicle must still be the one read). */
  async setStudents(db: Db, vehicle: Vehicle, studentIds: readonly number[]): Promise<void> {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: vehicleKey(vehicle.schoolId, vehicle.type, vehicle.number),
          UpdateExpression: 'SET studentIds = :ids',
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':ids': [...studentIds], ':id': vehicle.id },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) {
        throw new ConflictError(`${vehicleName(vehicle.type, vehicle.number)} was changed meanwhile`);
      }
      throw error;
    }
  },

  /** Writes many vehicles and their id items at once (a CSV import; ids allocated, numbers checked). */
  async putMany(db: Db, list: readonly Vehicle[]): Promise<void> {
    await putAll(
      db,
      list.flatMap((vehicle) => [itemOf(vehicle), pointerOf(vehicle)]),
      8,
    );
  },

  /** The active vehicles of a school, all pages. */
  listBySchool: reads.listActive,
  /** Every vehicle of a school, deactivated ones too (a CSV import matches against them). */
  listAll: reads.listAll,
  /** One page of the school's active vehicles (buses, then cars, by number text), optionally matching a search. */
  page: reads.page,
  count: reads.count,
};
