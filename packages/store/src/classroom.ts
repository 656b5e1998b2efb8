import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Classroom } from '@curbside/domain';
import type { Db } from './db';
import { nextId, stripKeys } from './ids';

/** Classroom: `SCHOOL#{schoolId}#CLASSROOMS` / `CLASSROOM#{id:010}`; a school's classrooms are one Query. */
export const classrooms = {
  async create(db: Db, input: Omit<Classroom, 'id'>): Promise<Classroom> {
    const classroom: Classroom = { id: await nextId(db, 'classroom'), ...input };
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          pk: `SCHOOL#${input.schoolId}#CLASSROOMS`,
          sk: `CLASSROOM#${String(classroom.id).padStart(10, '0')}`,
          entity: 'classroom',
          ...classroom,
        },
      }),
    );
    return classroom;
  },

  async listBySchool(db: Db, schoolId: number): Promise<Classroom[]> {
    const { Items = [] } = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `SCHOOL#${schoolId}#CLASSROOMS` },
      }),
    );
    return Items.map((item) => stripKeys<Classroom>(item));
  },
};
