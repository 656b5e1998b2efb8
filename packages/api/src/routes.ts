import {
  type Alert,
  addVehicleSchema,
  type Batch,
  type Classroom,
  createAlertSchema,
  createBatchSchema,
  type District,
  END_SESSION_MIN_ROLE,
  loginSchema,
  type PickupSession,
  parentRegisterSchema,
  pickupCodeSchema,
  QUEUE_STATUSES,
  type QueueEntry,
  type School,
  sessionInputSchema,
  type TeacherStudent,
  type User,
  updateBatchSchema,
  type Vehicle,
} from '@curbside/domain';
import { z } from 'zod';
import { returns, route } from './route';

const id = z.coerce.number({ message: 'Invalid id' }).int('Invalid id').positive('Invalid id');
const idParams = z.object({ id });
const ok = returns<{ ok: true }>();
const entryParams = z.object({ id: z.string().trim().min(1, 'Invalid id').max(64, 'Invalid id') });
const sessionQuery = z.object({ sessionId: id });
/** `classroomIds=3,7`: the classrooms a teacher view is about (absent: the whole school). */
const classroomIds = z
  .string({ message: 'Classroom ids must be numbers separated by commas' })
  .max(400, 'Too many classrooms')
  .regex(/^\d{1,10}(,\d{1,10})*$/, 'Classroom ids must be numbers separated by commas')
  .transform((value) => value.split(',').map(Number))
  .optional();
interface PickupCodeView {
  code: string;
  studentId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}
interface CodeLookup {
  code: string;
  expiresAt: string;
  student: { firstName: string; lastInitial: string } | null;
  schoolName: string | null;
}
interface LinkResult {
  linked: true;
  student: { id: number; firstName: string; lastName: string; grade: string } | null;
}

/**
 * The route table: the single source of truth for every HTTP call. Handlers
 * (`functions/src/http/{name}.ts`), the CDK stack, the laptop gateway and the
 * web client all read it.
 */
export const routes = {
  health: route({
    name: 'health',
    area: 'auth',
    method: 'GET',
    path: '/api/health',
    request: {},
    access: 'public',
    response: ok,
  }),

  // Staff sign-in
  login: route({
    name: 'login',
    area: 'auth',
    method: 'POST',
    path: '/api/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  logout: route({
    name: 'logout',
    area: 'auth',
    method: 'POST',
    path: '/api/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  me: route({
    name: 'me',
    area: 'auth',
    method: 'GET',
    path: '/api/me',
    request: {},
    access: 'signedIn',
    response: returns<User>(),
  }),

  // Parent sign-in and single sign-on
  parentLogin: route({
    name: 'parentLogin',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/parent/login',
    request: { body: loginSchema },
    access: 'public',
    response: returns<User>(),
  }),
  parentRegister: route({
    name: 'parentRegister',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/parent/register',
    request: { body: parentRegisterSchema },
    access: 'public',
    response: returns<User>(),
  }),
  authLogout: route({
    name: 'authLogout',
    area: 'auth',
    method: 'POST',
    path: '/api/auth/logout',
    request: {},
    access: 'public',
    response: ok,
  }),
  ssoLogin: route({
    name: 'ssoLogin',
    area: 'auth',
    method: 'GET',
    path: '/api/auth/login',
    request: {},
    access: 'public',
    response: returns<never>(),
  }),

  // Pickup sessions: open to every staff role of the school
  activeSession: route({
    name: 'activeSession',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions/active',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession | null>(),
  }),
  listSessions: route({
    name: 'listSessions',
    area: 'carLine',
    method: 'GET',
    path: '/api/sessions',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession[]>(),
  }),
  createSession: route({
    name: 'createSession',
    area: 'carLine',
    method: 'POST',
    path: '/api/sessions',
    request: { body: sessionInputSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession>(),
  }),
  endSession: route({
    name: 'endSession',
    area: 'carLine',
    method: 'PUT',
    path: '/api/sessions/{id}/end',
    request: { params: idParams },
    access: { minRole: END_SESSION_MIN_ROLE },
    response: returns<PickupSession>(),
  }),

  // Schools, districts and users: reads
  getSchool: route({
    name: 'getSchool',
    area: 'admin',
    method: 'GET',
    path: '/api/schools/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<School>(),
  }),
  getDistrict: route({
    name: 'getDistrict',
    area: 'admin',
    method: 'GET',
    path: '/api/districts/{id}',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<District>(),
  }),
  listUsers: route({
    name: 'listUsers',
    area: 'admin',
    method: 'GET',
    path: '/api/users',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<User[]>(),
  }),

  // The car line: queue, vehicles and alerts, open to every staff role of the school
  listQueue: route({
    name: 'listQueue',
    area: 'carLine',
    method: 'GET',
    path: '/api/queue',
    request: { query: sessionQuery.extend({ status: z.literal('completed').optional() }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToQueue: route({
    name: 'addToQueue',
    area: 'carLine',
    method: 'POST',
    path: '/api/queue',
    request: { body: addVehicleSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  removeFromQueue: route({
    name: 'removeFromQueue',
    area: 'carLine',
    method: 'DELETE',
    path: '/api/queue/{id}',
    request: { params: entryParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  setQueueStatus: route({
    name: 'setQueueStatus',
    area: 'carLine',
    method: 'PUT',
    path: '/api/queue/{id}/status',
    request: {
      params: entryParams,
      body: z.object({
        status: z.enum(QUEUE_STATUSES, { message: 'Status must be waiting, ready, overflow or completed' }),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  updateQueueEntry: route({
    name: 'updateQueueEntry',
    area: 'carLine',
    method: 'PUT',
    path: '/api/queue/{id}',
    request: {
      params: entryParams,
      body: z.object({
        batchId: id.nullable(),
        status: z.enum(['waiting', 'overflow'], { message: 'Status must be waiting or overflow' }),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  listVehicles: route({
    name: 'listVehicles',
    area: 'carLine',
    method: 'GET',
    path: '/api/vehicles',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Vehicle[]>(),
  }),
  createAlert: route({
    name: 'createAlert',
    area: 'carLine',
    method: 'POST',
    path: '/api/alerts',
    request: { body: createAlertSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ dismissed: boolean; alert: Alert }>(),
  }),
  listAlerts: route({
    name: 'listAlerts',
    area: 'carLine',
    method: 'GET',
    path: '/api/alerts',
    request: { query: sessionQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert[]>(),
  }),
  dismissAlert: route({
    name: 'dismissAlert',
    area: 'carLine',
    method: 'PUT',
    path: '/api/alerts/{id}/dismiss',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert>(),
  }),

  // Batches: called forward at the loading zone
  activeBatches: route({
    name: 'activeBatches',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches/active',
    request: { query: sessionQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch[]>(),
  }),
  listBatches: route({
    name: 'listBatches',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches',
    request: {
      query: sessionQuery.extend({
        status: z
          .enum(['loading', 'completed'], { message: 'Status must be loading or completed' })
          .default('completed'),
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch[]>(),
  }),
  createBatch: route({
    name: 'createBatch',
    area: 'carLine',
    method: 'POST',
    path: '/api/batches',
    request: { body: createBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  updateBatch: route({
    name: 'updateBatch',
    area: 'carLine',
    method: 'PUT',
    path: '/api/batches/{id}',
    request: { params: idParams, body: updateBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  batchVehicles: route({
    name: 'batchVehicles',
    area: 'carLine',
    method: 'GET',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToBatch: route({
    name: 'addToBatch',
    area: 'carLine',
    method: 'POST',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),

  // Teachers, classrooms and pickup codes
  listClassrooms: route({
    name: 'listClassrooms',
    area: 'teacher',
    method: 'GET',
    path: '/api/classrooms',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Classroom[]>(),
  }),
  teacherStudents: route({
    name: 'teacherStudents',
    area: 'teacher',
    method: 'GET',
    path: '/api/teacher/students',
    // Without a session: every student, none in the queue, released or picked up.
    request: { query: z.object({ sessionId: id.optional(), classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  readyStudents: route({
    name: 'readyStudents',
    area: 'teacher',
    method: 'GET',
    path: '/api/teacher/students/ready',
    request: { query: sessionQuery.extend({ classroomIds }) },
    access: { minRole: 'teacher' },
    response: returns<TeacherStudent[]>(),
  }),
  releaseStudent: route({
    name: 'releaseStudent',
    area: 'teacher',
    method: 'PUT',
    path: '/api/teacher/students/{id}/release',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<{ studentId: number; sessionId: number; releasedAt: string }>(),
  }),
  // A new pickup code changes how the student's parents may link: an update of the
  // student's record, which teachers may make (the data-permission matrix).
  generatePickupCode: route({
    name: 'generatePickupCode',
    area: 'teacher',
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
  studentPickupCode: route({
    name: 'studentPickupCode',
    area: 'teacher',
    method: 'GET',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher' },
    response: returns<PickupCodeView | null>(),
  }),
  newStudentPickupCode: route({
    name: 'newStudentPickupCode',
    area: 'teacher',
    method: 'POST',
    path: '/api/students/{id}/pickup-code',
    request: { params: idParams },
    access: { minRole: 'teacher', data: 'update' },
    response: returns<PickupCodeView>(),
  }),
  lookupPickupCode: route({
    name: 'lookupPickupCode',
    area: 'parent',
    method: 'GET',
    path: '/api/pickup-codes/lookup/{code}',
    request: { params: z.object({ code: pickupCodeSchema }) },
    access: 'public',
    response: returns<CodeLookup>(),
  }),
  usePickupCode: route({
    name: 'usePickupCode',
    area: 'parent',
    method: 'POST',
    path: '/api/pickup-codes/use',
    request: { body: z.object({ code: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
  linkStudent: route({
    name: 'linkStudent',
    area: 'parent',
    method: 'POST',
    path: '/api/parent/link-student',
    request: { body: z.object({ pickupCode: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export const routeList = Object.values(routes);
