import {
  type Alert,
  addVehicleSchema,
  type Batch,
  confirmUnreleasedField,
  createBatchSchema,
  type DismissalEvent,
  END_SESSION_MIN_ROLE,
  type PickupSession,
  QUEUE_STATUSES,
  type QueueEntry,
  removalSchema,
  type SessionListItem,
  type SessionReport,
  type StudentMark,
  sessionInputSchema,
  updateBatchSchema,
} from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';
import { alertBodySchema, cursorQuery, entryParams, id, idParams, sessionQuery } from './shared';

/** Running a dismissal: pickup sessions, the queue, vehicles, alerts and batches, open to every staff role of the school. */
export const carLineRoutes = areaRoutes('carLine', {
  // Pickup sessions: open to every staff role of the school
  activeSession: route({
    method: 'GET',
    path: '/api/sessions/active',
    request: {},
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession | null>(),
  }),
  listSessions: route({
    method: 'GET',
    path: '/api/sessions',
    request: { query: cursorQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ items: SessionListItem[]; next: string | null }>(),
  }),
  // The dismissal's record: reports for school admins and above (district admins of its district, super admins).
  sessionReport: route({
    method: 'GET',
    path: '/api/sessions/{id}/report',
    request: { params: idParams },
    access: { minRole: 'school_admin' },
    response: returns<SessionReport>(),
  }),
  sessionReportCsv: route({
    method: 'GET',
    path: '/api/sessions/{id}/report.csv',
    request: { params: idParams },
    access: { minRole: 'school_admin' },
    response: returns<string>(),
  }),
  sessionEvents: route({
    method: 'GET',
    path: '/api/sessions/{id}/events',
    request: { params: idParams, query: cursorQuery },
    access: { minRole: 'school_admin' },
    response: returns<{ items: DismissalEvent[]; next: string | null }>(),
  }),
  createSession: route({
    method: 'POST',
    path: '/api/sessions',
    request: { body: sessionInputSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<PickupSession>(),
  }),
  endSession: route({
    method: 'PUT',
    path: '/api/sessions/{id}/end',
    request: { params: idParams },
    access: { minRole: END_SESSION_MIN_ROLE },
    response: returns<PickupSession>(),
  }),
  // The car line: queue, vehicles and alerts, open to every staff role of the school
  sessionReleases: route({
    method: 'GET',
    path: '/api/sessions/{id}/releases',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<StudentMark[]>(),
  }),
  listQueue: route({
    method: 'GET',
    path: '/api/queue',
    request: { query: sessionQuery.extend({ status: z.literal('completed').optional() }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToQueue: route({
    method: 'POST',
    path: '/api/queue',
    request: { body: addVehicleSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  removeFromQueue: route({
    method: 'DELETE',
    path: '/api/queue/{id}',
    request: { params: entryParams, body: removalSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  restoreQueueEntry: route({
    method: 'POST',
    path: '/api/queue/{id}/restore',
    request: { params: entryParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  setQueueStatus: route({
    method: 'PUT',
    path: '/api/queue/{id}/status',
    request: {
      params: entryParams,
      body: z.object({
        status: z.enum(QUEUE_STATUSES, { message: 'Status must be waiting, ready, overflow or completed' }),
        confirmUnreleased: confirmUnreleasedField,
      }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry>(),
  }),
  updateQueueEntry: route({
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
  createAlert: route({
    method: 'POST',
    path: '/api/alerts',
    request: { body: alertBodySchema },
    access: { minRole: 'front_queue_wrangler', busLink: 'driver' },
    response: returns<{ dismissed: boolean; alert: Alert }>(),
  }),
  listAlerts: route({
    method: 'GET',
    path: '/api/alerts',
    request: { query: z.object({ sessionId: id.optional() }) },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert[]>(),
  }),
  acknowledgeAlert: route({
    method: 'POST',
    path: '/api/alerts/{id}/acknowledge',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert>(),
  }),
  dismissAlert: route({
    method: 'PUT',
    path: '/api/alerts/{id}/dismiss',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Alert>(),
  }),
  // Batches: called forward at the loading zone
  activeBatches: route({
    method: 'GET',
    path: '/api/batches/active',
    request: { query: sessionQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch[]>(),
  }),
  listBatches: route({
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
    method: 'POST',
    path: '/api/batches',
    request: { body: createBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  updateBatch: route({
    method: 'PUT',
    path: '/api/batches/{id}',
    request: { params: idParams, body: updateBatchSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
  batchVehicles: route({
    method: 'GET',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<QueueEntry[]>(),
  }),
  addToBatch: route({
    method: 'POST',
    path: '/api/batches/{id}/vehicles',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Batch>(),
  }),
});
