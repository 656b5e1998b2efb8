import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { School, SchoolSettingsInput } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, setSandboxOf } from './query';

/**
 * School: `SCHOOL#{id}` / `SCHOOL`.
 * Schools of a district: gsi1 `DISTRICT#{districtId}#SCHOOLS` / `SCHOOL#{id:010}`.
 */
/** A school's item. */
export const schoolKey = (id: number) => ({ pk: `SCHOOL#${id}`, sk: 'SCHOOL' });
const key = schoolKey;

export const schools = {
  async create(db: Db, input: Omit<School, 'id' | 'createdAt'>): Promise<School> {
    const id = await nextId(db, 'school');
    const school: School = { id, createdAt: new Date().toISOString(), ...input };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(id),
          gsi1pk: `DISTRICT#${input.districtId}#SCHOOLS`,
          gsi1sk: `SCHOOL#${String(id).padStart(10, '0')}`,
          entity: 'school',
          ...school,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return school;
  },

  /** `get` as a keyed read (`keyed-read.ts`), in a BatchGetItem shared with others (the caller's sign-in read). */
  keyed(id: number): KeyedRead<School | undefined> {
    return {
      keys: [key(id)],
      from: (found) => {
        const item = itemAt(found, key(id));
        return item ? stripKeys<School>(item) : undefined;
      },
    };
  },

  async get(db: Db, id: number): Promise<School | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(id) }));
    return Item ? stripKeys<School>(Item) : undefined;
  },

  async listByDistrict(db: Db, districtId: number): Promise<School[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': `DISTRICT#${districtId}#SCHOOLS` },
      }),
    );
    return Items.map((item) => stripKeys<School>(item));
  },

  /**
   * The school's settings (#32), in one write: its batch capacities (a batch
   * made afterwards takes them; one made before keeps its own), its usual
   * dismissal length, languages, record retention and phone; and its clock
   * (issue 51: time zone, change cutoff and approval) and its families'
   * arrival announcements (issue 53: mode and geofence), each only when given.
   * Undefined when the school does not exist.
   */
  async updateSettings(db: Db, id: number, settings: SchoolSettingsInput): Promise<School | undefined> {
    // The phone (issue 50): set, removed (null), or left as it is (absent).
    const phone =
      settings.phone === undefined ? '' : settings.phone === null ? ' REMOVE phone' : ', phone = :phone';
    const clock = (['timeZone', 'changeCutoff', 'changeApproval', 'arrival'] as const).filter(
      (field) => settings[field] !== undefined,
    );
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(id),
          UpdateExpression: `${[
            'SET batchCapacity = :capacity, defaultSessionMinutes = :minutes, languages = :languages, retentionDays = :retention',
            ...clock.map((field) => `#${field} = :${field}`),
          ].join(', ')}${phone}`,
          ConditionExpression: 'attribute_exists(pk)',
          ...(clock.length > 0
            ? { ExpressionAttributeNames: Object.fromEntries(clock.map((field) => [`#${field}`, field])) }
            : {}),
          ExpressionAttributeValues: {
            ':capacity': { car: settings.carBatchCapacity, bus: settings.busBatchCapacity },
            ':minutes': settings.defaultSessionMinutes,
            ':languages': settings.languages,
            ':retention': settings.recordRetentionDays,
            ...(settings.phone ? { ':phone': settings.phone } : {}),
            ...Object.fromEntries(clock.map((field) => [`:${field}`, settings[field]])),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? stripKeys<School>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  setSandbox(db: Db, id: number, sandbox: boolean): Promise<School | undefined> {
    return setSandboxOf<School>(db, key(id), sandbox);
  },
};
