import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Classroom, ConflictError } from '@curbside/domain';
import { getAll, putAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, rosterReads } from './query';

/**
 * Classroom: `SCHOOL#{schoolId}#CLASSROOMS` / `CLASSROOM#{id:010}`; a school's
 * classrooms are one partition (tens of items), read whole. Deactivated
 * classrooms keep their item (`active: false`) and leave the lists.
 */
const partition = (schoolId: number) => `SCHOOL#${schoolId}#CLASSROOMS`;
const key = (schoolId: number, id: number) => ({
  pk: partition(schoolId),
  sk: `CLASSROOM#${String(id).padStart(10, '0')}`,
});
const itemOf = (classroom: Classroom) => ({
  ...key(classroom.schoolId, classroom.id),
  entity: 'classroom',
  ...classroom,
});
const toClassroom = (item: Record<string, unknown>): Classroom => {
  const classroom = stripKeys<Classroom>(item);
  return { ...classroom, active: classroom.active ?? true, teacherId: classroom.teacherId ?? null };
};

const reads = rosterReads({
  partition,
  isKey: (key) => /^CLASSROOM#\d{10}$/.test(key.sk),
  toRecord: toClassroom,
});

export const classrooms = {
  async create(db: Db, input: Omit<Classroom, 'id' | 'active'> & { active?: boolean }): Promise<Classroom> {
    const classroom: Classroom = { active: true, ...input, id: await nextId(db, 'classroom') };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: itemOf(classroom),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return classroom;
  },

  async get(db: Db, schoolId: number, id: number): Promise<Classroom | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: key(schoolId, id), ConsistentRead: true }),
    );
    return Item ? toClassroom(Item) : undefined;
  },

  /**
   * Which of these ids are classrooms of the school (one BatchGetItem, keys
   * only): another school's ids and unknown ones are left out. In the order given.
   */
  async existing(db: Db, schoolId: number, ids: readonly number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const found = await getAll(
      db,
      unique.map((id) => key(schoolId, id)),
    );
    const known = new Set(found.map((item) => item.sk));
    return unique.filter((id) => known.has(key(schoolId, id).sk));
  },

  /**
   * The active classrooms of the school with these ids, in the order given
   * (each once), as a keyed read (`keyed-read.ts`, issue 54: beside a
   * release's sign-in); another school's id, an unknown or deactivated one is
   * left out.
   */
  keyedMany(schoolId: number, ids: readonly number[]): KeyedRead<Classroom[]> {
    const keys = [...new Set(ids)].map((id) => key(schoolId, id));
    return {
      keys,
      from: (found) =>
        keys
          .map((at) => itemAt(found, at))
          .filter((item) => item !== undefined)
          .map(toClassroom)
          .filter((room) => room.active),
    };
  },

  /** Replaces a classroom's fields (the classroom must exist). */
  async update(db: Db, classroom: Classroom): Promise<Classroom> {
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: itemOf(classroom),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('This classroom was removed meanwhile');
      throw error;
    }
    return classroom;
  },

  /** Writes many classrooms at once (a CSV import; ids allocated). */
  async putMany(db: Db, list: readonly Classroom[]): Promise<void> {
    await putAll(db, list.map(itemOf), 4);
  },

  /** The active classrooms of a school, all pages. */
  listBySchool: reads.listActive,
  /** Every classroom of a school, deactivated ones too. */
  listAll: reads.listAll,
  count: reads.count,
};
