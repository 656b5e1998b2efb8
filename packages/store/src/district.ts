import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { District } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { isConditionFailure, setSandboxOf } from './query';

/**
 * District: `DISTRICT#{id}` / `DISTRICT`.
 * All districts: gsi1 `DISTRICTS` / `DISTRICT#{id:010}`.
 */
/** A district's item. */
export const districtKey = (id: number) => ({ pk: `DISTRICT#${id}`, sk: 'DISTRICT' });
const key = districtKey;

export const districts = {
  async create(db: Db, input: Omit<District, 'id' | 'createdAt'>): Promise<District> {
    const id = await nextId(db, 'district');
    const district: District = { id, createdAt: new Date().toISOString(), ...input };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...key(id),
          gsi1pk: 'DISTRICTS',
          gsi1sk: `DISTRICT#${String(id).padStart(10, '0')}`,
          entity: 'district',
          ...district,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return district;
  },

  async get(db: Db, id: number): Promise<District | undefined> {
    const { Item } = await db.doc.send(new GetCommand({ TableName: db.table, Key: key(id) }));
    return Item ? stripKeys<District>(Item) : undefined;
  },

  async list(db: Db): Promise<District[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'DISTRICTS' },
      }),
    );
    return Items.map((item) => stripKeys<District>(item));
  },

  /** Its name, and the time zone its new schools take (when given); undefined when it does not exist. */
  async update(db: Db, id: number, fields: { name: string; timeZone?: string | undefined }) {
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(id),
          UpdateExpression: `SET #name = :name${fields.timeZone ? ', #timeZone = :timeZone' : ''}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: {
            '#name': 'name',
            ...(fields.timeZone ? { '#timeZone': 'timeZone' } : {}),
          },
          ExpressionAttributeValues: {
            ':name': fields.name,
            ...(fields.timeZone ? { ':timeZone': fields.timeZone } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? stripKeys<District>(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  setSandbox(db: Db, id: number, sandbox: boolean): Promise<District | undefined> {
    return setSandboxOf<District>(db, key(id), sandbox);
  },
};
