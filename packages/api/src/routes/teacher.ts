import {
  type Classroom,
  type PickupCodeView,
  type StudentPickup,
  schoolScopeSchema,
  type TeacherStudent,
} from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';
import { classroomIds, id, idParams, sessionQuery } from './shared';

/** Classrooms, the teacher's students, releases and pickup codes. */
export const teacherRoutes = areaRoutes('teacher', {
  // Teachers, classrooms and pickup codes
  listClassrooms: route({
    method: 'GET',
    path: '/api/classrooms',
    request: { query: schoolScopeSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Classroom[]>(),
  }),
  teacherStudents: route({
    method: 'GET',
    path: '/api/teacher/students',
    // Without a session: every student, none in the queue, released or picked up.
    request: { query: z.object({ sessionId: id.optional(), classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  readyStudents: route({
    method: 'GET',
    path: '/api/teacher/students/ready',
    request: { query: sessionQuery.extend({ classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  releaseStudent: route({
    method: 'PUT',
    path: '/api/teacher/students/{id}/release',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<{ studentId: number; sessionId: number; releasedAt: string }>(),
  }),
  // A new pickup code changes how the student's parents may link: an update of the
  // student's record, which teachers may make (the data-permission matrix).
  generatePickupCode: route({
    method: 'POST',
    path: '/api/pickup-codes/generate',
    request: {
      body: z.object({
        studentId: z.coerce.number({ message: 'No student selected' }).int().positive('No student selected'),
      }),
    },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<PickupCodeView>(),
  }),
  studentPickups: route({
    method: 'GET',
    path: '/api/students/{id}/pickups',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<StudentPickup[]>(),
  }),
  studentPickupCode: route({
    method: 'GET',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<PickupCodeView | null>(),
  }),
  newStudentPickupCode: route({
    method: 'POST',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<PickupCodeView>(),
  }),
});
