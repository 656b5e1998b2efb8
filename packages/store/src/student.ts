import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, type Student, searchText } from '@curbside/domain';
import { deleteAll, putAll } from './batch-write';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { itemAt, type KeyedRead } from './keyed-read';
import { isConditionFailure, queryAll, rosterReads } from './query';

/**
 * Student: `SCHOOL#{schoolId}#STUDENTS` / `STUDENT#{id:010}`; a school's
 * students are one partition, in id order. `search` holds the lowercased
 * name and grade for the roster's search. Deactivated students keep their
 * item (`active: false`) and leave every list. Students of a classroom:
 * gsi1 `SCHOOL#{schoolId}#CLASSROOM#{classroomId}#STUDENTS` / `STUDENT#{id:010}`
 * (the teacher's view reads only its classrooms).
 */
const partition = (schoolId: number) => `SCHOOL#${schoolId}#STUDENTS`;
/** A student's key (for a read beside others: `visit-reads.ts`). */
export const studentKey = (schoolId: number, id: number) => ({
  pk: partition(schoolId),
  sk: `STUDENT#${String(id).padStart(10, '0')}`,
});

export type { Student };

/** A student as stored; fields older items lack get their defaults. */
export const toStudent = (item: Record<string, unknown>): Student => {
  const student = stripKeys<Student>(item);
  return {
    ...student,
    active: student.active ?? true,
    classroomId: student.classroomId ?? null,
    parentName: student.parentName ?? null,
    parentPhone: student.parentPhone ?? null,
    parentEmail: student.parentEmail ?? null,
    notes: student.notes ?? null,
  };
};

const classroomIndex = (student: Student) =>
  student.classroomId === null
    ? {}
    : {
        gsi1pk: `SCHOOL#${student.schoolId}#CLASSROOM#${student.classroomId}#STUDENTS`,
        gsi1sk: studentKey(student.schoolId, student.id).sk,
      };

const itemOf = (student: Student) => ({
  ...studentKey(student.schoolId, student.id),
  ...classroomIndex(student),
  entity: 'student',
  search: searchText(`${student.firstName} ${student.lastName}`, student.grade),
  ...student,
});

export type NewStudent = Omit<
  Student,
  'id' | 'active' | 'parentName' | 'parentPhone' | 'parentEmail' | 'notes'
> &
  Partial<Pick<Student, 'active' | 'parentName' | 'parentPhone' | 'parentEmail' | 'notes'>>;

const reads = rosterReads({
  partition,
  isKey: (key) => /^STUDENT#\d{10}$/.test(key.sk),
  toRecord: toStudent,
});

export const students = {
  /** Erases a student's roster item (issue 55: `POST /api/students/{id}/erase`). */
  async erase(db: Db, schoolId: number, id: number): Promise<void> {
    await deleteAll(db, [studentKey(schoolId, id)]);
  },

  async create(db: Db, input: NewStudent): Promise<Student> {
    const student: Student = {
      active: true,
      parentName: null,
      parentPhone: null,
      parentEmail: null,
      notes: null,
      ...input,
      id: await nextId(db, 'student'),
    };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: itemOf(student),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return student;
  },

  async get(db: Db, schoolId: number, id: number): Promise<Student | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: studentKey(schoolId, id), ConsistentRead: true }),
    );
    return Item ? toStudent(Item) : undefined;
  },

  /** Replaces a student's fields (the student must exist). */
  async update(db: Db, student: Student): Promise<Student> {
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: itemOf(student),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new ConflictError('This student was removed meanwhile');
      throw error;
    }
    return student;
  },

  /** Writes many students at once (a CSV import; every id already allocated). */
  async putMany(db: Db, list: readonly Student[]): Promise<void> {
    await putAll(db, list.map(itemOf), 8);
  },

  /**
   * Active students of a school by id (BatchGet, 100 at a time): a
   * deactivated student has left the car line, the teacher screen and the
   * pickup codes, though vehicles and parents may still name them.
   */
  /**
   * `getMany` as a keyed read (`keyed-read.ts`): the active ones of these
   * students, in id order, read in a BatchGetItem shared with others.
   */
  keyedMany(schoolId: number, ids: readonly number[]): KeyedRead<Student[]> {
    const keys = [...new Set(ids)].map((id) => studentKey(schoolId, id));
    return {
      keys,
      from: (found) =>
        keys
          .map((key) => itemAt(found, key))
          .filter((item) => item !== undefined)
          .map(toStudent)
          .filter((student) => student.active)
          .sort((a, b) => a.id - b.id),
    };
  },

  async getMany(db: Db, schoolId: number, ids: readonly number[]): Promise<Student[]> {
    const unique = [...new Set(ids)];
    const found: Student[] = [];
    for (let i = 0; i < unique.length; i += 100) {
      let keys: Record<string, unknown>[] | undefined = unique
        .slice(i, i + 100)
        .map((id) => studentKey(schoolId, id));
      while (keys && keys.length > 0) {
        const result: BatchGetCommandOutput = await db.doc.send(
          new BatchGetCommand({ RequestItems: { [db.table]: { Keys: keys } } }),
        );
        found.push(
          ...(result.Responses?.[db.table] ?? []).map((item: Record<string, unknown>) => toStudent(item)),
        );
        keys = result.UnprocessedKeys?.[db.table]?.Keys;
      }
    }
    return found.filter((student) => student.active).sort((a, b) => a.id - b.id);
  },

  /** The active students of one classroom (gsi1), in id order. */
  async listByClassroom(db: Db, schoolId: number, classroomId: number): Promise<Student[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#CLASSROOM#${classroomId}#STUDENTS` },
    });
    return items.map(toStudent).filter((student) => student.active);
  },

  /** The active students of a school, all pages. */
  listBySchool: reads.listActive,
  /** Every student of a school, deactivated ones too (a CSV import matches against them). */
  listAll: reads.listAll,
  /** One page of the school's active students, in id order, optionally matching a search. */
  page: reads.page,
  /** How many active students a school has. */
  count: reads.count,
};
