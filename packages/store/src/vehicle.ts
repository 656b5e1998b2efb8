import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StudentSummary, Vehicle, VehicleType } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { queryAll } from './query';

/**
 * Vehicle: `SCHOOL#{schoolId}#VEHICLES` / `{type}#{number}`: the number is
 * unique per school and type, and the queue finds a vehicle by it.
 * Student: `SCHOOL#{schoolId}#STUDENTS` / `STUDENT#{id:010}`.
 */
const vehicleKey = (schoolId: number, type: VehicleType, number: string) => ({
  pk: `SCHOOL#${schoolId}#VEHICLES`,
  sk: `${type}#${number.toUpperCase()}`,
});
const studentKey = (schoolId: number, id: number) => ({
  pk: `SCHOOL#${schoolId}#STUDENTS`,
  sk: `STUDENT#${String(id).padStart(10, '0')}`,
});

export interface Student extends StudentSummary {
  schoolId: number;
}

export const vehicles = {
  async create(db: Db, input: Omit<Vehicle, 'id'>): Promise<Vehicle> {
    const vehicle: Vehicle = { id: await nextId(db, 'vehicle'), ...input };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...vehicleKey(input.schoolId, input.type, input.number), entity: 'vehicle', ...vehicle },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return vehicle;
  },

  async byNumber(db: Db, schoolId: number, type: VehicleType, number: string): Promise<Vehicle | undefined> {
    const { Item } = await db.doc.send(
      new GetCommand({ TableName: db.table, Key: vehicleKey(schoolId, type, number) }),
    );
    return Item ? stripKeys<Vehicle>(Item) : undefined;
  },

  async listBySchool(db: Db, schoolId: number): Promise<Vehicle[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#VEHICLES` },
    });
    return items.map((item) => stripKeys<Vehicle>(item));
  },
};

export const students = {
  async create(db: Db, input: Omit<Student, 'id'>): Promise<Student> {
    const student: Student = { id: await nextId(db, 'student'), ...input };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...studentKey(input.schoolId, student.id), entity: 'student', ...student },
      }),
    );
    return student;
  },

  /** Students of a school by id (BatchGet, 100 at a time). */
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
          ...(result.Responses?.[db.table] ?? []).map((item: Record<string, unknown>) =>
            stripKeys<Student>(item),
          ),
        );
        keys = result.UnprocessedKeys?.[db.table]?.Keys;
      }
    }
    return found.sort((a, b) => a.id - b.id);
  },

  async listBySchool(db: Db, schoolId: number): Promise<Student[]> {
    const items = await queryAll(db, {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#STUDENTS` },
    });
    return items.map((item) => stripKeys<Student>(item));
  },
};
