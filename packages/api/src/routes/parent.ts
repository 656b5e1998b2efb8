import {
  type CodeLookup,
  type LinkResult,
  type ParentChild,
  type ParentStudentStatus,
  pickupCodeSchema,
} from '@curbside/domain';
import * as z from 'zod';
import { areaRoutes, returns, route } from '../route';

/** The parent portal and the invite links. */
export const parentRoutes = areaRoutes('parent', {
  lookupPickupCode: route({
    method: 'GET',
    path: '/api/pickup-codes/lookup/{code}',
    request: { params: z.object({ code: pickupCodeSchema }) },
    access: 'public',
    response: returns<CodeLookup>(),
  }),
  usePickupCode: route({
    method: 'POST',
    path: '/api/pickup-codes/use',
    request: { body: z.object({ code: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
  linkStudent: route({
    method: 'POST',
    path: '/api/parent/link-student',
    request: { body: z.object({ pickupCode: pickupCodeSchema }) },
    access: 'parent',
    response: returns<LinkResult>(),
  }),
  parentStudents: route({
    method: 'GET',
    path: '/api/parent/students',
    request: {},
    access: 'parent',
    response: returns<ParentChild[]>(),
  }),
  parentStudentStatus: route({
    method: 'GET',
    path: '/api/parent/students/status',
    request: {},
    access: 'parent',
    response: returns<ParentStudentStatus[]>(),
  }),
});
