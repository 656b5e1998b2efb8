import type { BusRiders, ProgramCheckIn, ProgramList, WayReleaseAnswer } from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';
import { day, id, idParams } from './shared';

/**
 * The whole dismissal by way home (issue 52): releases of walkers, a bus's
 * riders and a program's children in one press (teachers and above, as a
 * release), a bus's riders and a program's list of a day, and check-ins at a
 * program (any staff role: the program's staff). The teacher area: releases
 * and their live events.
 */
const classroomsBody = z.object({
  classroomIds: z
    .array(id, { message: 'classroomIds must be a list of classroom ids' })
    .min(1, 'Choose at least one classroom')
    .max(200, 'Too many classrooms'),
});
const dayQuery = z.object({ date: day('date').optional() });
const released = returns<WayReleaseAnswer>();

export const wayDismissalRoutes = areaRoutes('teacher', {
  releaseWalkers: route({
    method: 'POST',
    path: '/api/walkers/release',
    request: { body: classroomsBody },
    access: { minRole: 'teacher' },
    response: released,
  }),
  releaseBusRiders: route({
    method: 'POST',
    path: '/api/buses/{id}/release',
    request: { params: idParams, body: classroomsBody },
    access: { minRole: 'teacher' },
    response: released,
  }),
  releaseToProgram: route({
    method: 'POST',
    path: '/api/programs/{id}/release',
    request: { params: idParams, body: classroomsBody },
    access: { minRole: 'teacher' },
    response: released,
  }),
  busRiders: route({
    method: 'GET',
    path: '/api/buses/{id}/riders',
    request: { params: idParams, query: dayQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<BusRiders>(),
  }),
  programStudents: route({
    method: 'GET',
    path: '/api/programs/{id}/students',
    request: { params: idParams, query: dayQuery },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<ProgramList>(),
  }),
  checkInProgramStudent: route({
    method: 'PUT',
    path: '/api/students/{id}/program-check-in',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<ProgramCheckIn>(),
  }),
  undoProgramCheckIn: route({
    method: 'DELETE',
    path: '/api/students/{id}/program-check-in',
    request: { params: idParams },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<ProgramCheckIn>(),
  }),
});
