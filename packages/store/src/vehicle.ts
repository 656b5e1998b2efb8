import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { StudentSummary, Vehicle, VehicleType } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';
import { isConditionFailure, queryAll } from './query';

/**
 * Vehicle: `SCHOOL#{schoolId}#VEHICLES` / `{type}#{number}`: the number is
 * unique per school and type, and the queue finds a vehicle by it.
 * Student: `SCHOOL#{schoolId}#STUDENTS` / `STUDENT#{id:010}`; students of a
 * classroom on gsi1 `SCHOOL#{schoolId}#CLASSROOM#{classroomId}#STUDENTS` /
 * `STUDENT#{id:010}`. A student carries their `ride` (the registered
 * vehicle that picks them up: type, number, parent name), written when the
 * vehicle is registered, so a classroom's view needs no vehicle reads.
 */
const vehicleKey = (schoolId: number, type: VehicleType, number: string) => ({
  pk: `SCHOOL#${schoolId}#VEHICLES`,
  sk: `${type}#${number.toUpperCase()}`,
});
const studentKey = (schoolId: number, id: number) => ({
  pk: `SCHOOL#${schoolId}#STUDENTS`,
  sk: `STUDENT#${String(id).padStart(10, '0')}`,
});

/** The registered vehicle that picks a student up, as kept on the student. */
export interface Ride {
  type: VehicleType;
  number: string;
  parentName: string | null;
}

export interface Student extends StudentSummary {
  schoolId: number;
  /** Set when a registered vehicle lists the student (the first such vehicle). */
  ride?: Ride | null;
}

const classroomIndex = (schoolId: number, classroomId: number | null, id: number) =>
  classroomId === null
    ? {}
    : {
        gsi1pk: `SCHOOL#${schoolId}#CLASSROOM#${classroomId}#STUDENTS`,
        gsi1sk: `STUDENT#${String(id).padStart(10, '0')}`,
      };

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
    await giveRide(db, vehicle);
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
        Item: {
          ...studentKey(input.schoolId, student.id),
          ...classroomIndex(input.schoolId, input.classroomId, student.id),
          entity: 'student',
          ...student,
        },
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

  /** The students of one classroom (students by classroom, gsi1), in id order. */
  async listByClassroom(db: Db, schoolId: number, classroomId: number): Promise<Student[]> {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#CLASSROOM#${classroomId}#STUDENTS` },
    });
    return items.map((item) => stripKeys<Student>(item));
  },
};

/**
 * Records a newly registered vehicle as the ride of each of its students that
 * has none yet (a student listed by two vehicles keeps the first).
 */
const giveRide = async (db: Db, vehicle: Vehicle) => {
  const ride: Ride = { type: vehicle.type, number: vehicle.number, parentName: vehicle.parentName };
  await Promise.all(
    [...new Set(vehicle.studentIds)].map(async (studentId) => {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.table,
            Key: studentKey(vehicle.schoolId, studentId),
            UpdateExpression: 'SET ride = :ride',
            ConditionExpression:
              'attribute_exists(pk) AND (attribute_not_exists(ride) OR attribute_type(ride, :null))',
            ExpressionAttributeValues: { ':ride': ride, ':null': 'NULL' },
          }),
        );
      } catch (error) {
        // A student unknown here, or already given a ride by another vehicle.
        if (!isConditionFailure(error)) throw error;
      }
    }),
  );
};
