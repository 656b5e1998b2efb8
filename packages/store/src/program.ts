import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Program, ProgramInput } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, queryAll } from './query';

/**
 * After-school programs (issue 51): `SCHOOL#{schoolId}#PROGRAMS` /
 * `PROGRAM#{id:010}`; a school's programs are one partition (a handful).
 * A weekly plan may name a program only while it is active (a condition
 * check in the plan's transaction), so deactivating one first and then
 * reading the plans tells for sure whether any student is planned into it.
 */
const partition = (schoolId: number) => `SCHOOL#${schoolId}#PROGRAMS`;
const key = (schoolId: number, id: number) => ({
  pk: partition(schoolId),
  sk: `PROGRAM#${String(id).padStart(10, '0')}`,
});

/** The transaction item that holds a plan's write to the program being active. */
export const activeProgramCheck = (db: Db, schoolId: number, programId: number) => ({
  ConditionCheck: {
    TableName: db.table,
    Key: key(schoolId, programId),
    ConditionExpression: 'active = :active',
    ExpressionAttributeValues: { ':active': true },
  },
});

/** A program's key, and a program as stored: for a read beside others (`visit-reads.ts`). */
export { key as programKey, toProgram };

const toProgram = (item: Record<string, unknown>) => {
  const program = stripKeys<Program>(item);
  return { ...program, location: program.location ?? null };
};

export const programs = {
  async create(db: Db, schoolId: number, input: ProgramInput): Promise<Program> {
    const program: Program = {
      id: await nextId(db, 'program'),
      schoolId,
      name: input.name,
      kind: input.kind,
      location: input.location,
      active: input.active ?? true,
      createdAt: new Date().toISOString(),
    };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...key(schoolId, program.id), entity: 'program', ...program },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return program;
  },

  async get(db: Db, schoolId: number, id: number): Promise<Program | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(schoolId, id), ConsistentRead: true }),
    );
    return Item ? toProgram(Item) : undefined;
  },

  /** `get` as a keyed read (`keyed-read.ts`, issue 54: beside a release's sign-in; consistent, as `get`). */
  keyed(schoolId: number, id: number): KeyedRead<Program | undefined> {
    const at = key(schoolId, id);
    return {
      keys: [at],
      consistent: true,
      from: (found) => {
        const item = itemAt(found, at);
        return item ? toProgram(item) : undefined;
      },
    };
  },

  /** The school's programs, active and not, by id. */
  async ofSchool(db: Db, schoolId: number): Promise<Program[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :program)',
      ExpressionAttributeValues: { ':pk': partition(schoolId), ':program': 'PROGRAM#' },
    });
    return items.map(toProgram);
  },

  /** Changes a program's fields; undefined when it is not there. */
  async update(
    db: Db,
    schoolId: number,
    id: number,
    fields: Pick<Program, 'name' | 'kind' | 'location' | 'active'>,
  ): Promise<Program | undefined> {
    try {
      const { Attributes } = await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key(schoolId, id),
          UpdateExpression: 'SET #name = :name, kind = :kind, #location = :location, active = :active',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#name': 'name', '#location': 'location' },
          ExpressionAttributeValues: {
            ':name': fields.name,
            ':kind': fields.kind,
            ':location': fields.location,
            ':active': fields.active,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? toProgram(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  },

  /** Deletes a program that is deactivated (deactivate it first, then check its plans); false when gone already. */
  async deleteInactive(db: Db, schoolId: number, id: number): Promise<boolean> {
    try {
      await db.doc.send(
        new DeleteCommand({
          TableName: db.table,
          Key: key(schoolId, id),
          ConditionExpression: 'active = :inactive',
          ExpressionAttributeValues: { ':inactive': false },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
