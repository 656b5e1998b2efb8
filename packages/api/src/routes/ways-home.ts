import {
  type DismissalChangeView,
  denyChangeSchema,
  dismissalChangeInputSchema,
  dismissalPlanBodySchema,
  type ParentWaysHome,
  type PlanEntry,
  type Program,
  programInputSchema,
  schoolScopeSchema,
  type WayEvent,
  type WayOptions,
  type WeeklyPlan,
} from '@curbside/domain';
import { areaRoutes, returns, route } from '../route';
import { classroomIds, day, id, idParams, rosterParams } from './shared';

/**
 * Every way home (issue 51): the school's programs, students' weekly plans,
 * dated changes and the day's plan. The school's rosters' area: its function
 * publishes (the live events) and starts the mail sender (the family's email
 * on a decision). Staff routes take `?schoolId=` as the rosters do.
 */
const changeParams = { params: idParams };
const changeAnswer = returns<{ change: DismissalChangeView }>();

export const wayHomeRoutes = areaRoutes('admin', {
  listPrograms: route({
    method: 'GET',
    path: '/api/programs',
    request: { query: schoolScopeSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<Program[]>(),
  }),
  createProgram: route({
    method: 'POST',
    path: '/api/programs',
    request: { query: schoolScopeSchema, body: programInputSchema },
    access: { minRole: 'school_admin', data: 'create' },
    response: returns<Program>(),
  }),
  updateProgram: route({
    method: 'PUT',
    path: '/api/programs/{id}',
    request: { ...rosterParams, body: programInputSchema },
    access: { minRole: 'school_admin', data: 'update' },
    response: returns<Program>(),
  }),
  deleteProgram: route({
    method: 'DELETE',
    path: '/api/programs/{id}',
    request: rosterParams,
    access: { minRole: 'school_admin', data: 'delete' },
    response: returns<{ program: Program; deleted: boolean }>(),
  }),
  wayOptions: route({
    method: 'GET',
    path: '/api/ways-home/options',
    request: { query: schoolScopeSchema },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<WayOptions>(),
  }),
  getDismissalPlan: route({
    method: 'GET',
    path: '/api/students/{id}/dismissal-plan',
    request: rosterParams,
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ plan: WeeklyPlan; isDefault: boolean }>(),
  }),
  putDismissalPlan: route({
    method: 'PUT',
    path: '/api/students/{id}/dismissal-plan',
    request: { ...rosterParams, body: dismissalPlanBodySchema },
    access: { minRole: 'school_admin', data: 'update' },
    response: returns<{ plan: WeeklyPlan; isDefault: boolean }>(),
  }),
  studentWayHistory: route({
    method: 'GET',
    path: '/api/students/{id}/way-history',
    request: rosterParams,
    access: { minRole: 'teacher' },
    response: returns<WayEvent[]>(),
  }),
  dayPlan: route({
    method: 'GET',
    path: '/api/dismissal-plan',
    request: {
      query: schoolScopeSchema.extend({ date: day('date').optional(), classroomIds }),
    },
    access: { minRole: 'front_queue_wrangler' },
    response: returns<{ date: string; students: PlanEntry[] }>(),
  }),
  createDismissalChange: route({
    method: 'POST',
    path: '/api/dismissal-changes',
    request: { query: schoolScopeSchema, body: dismissalChangeInputSchema },
    // The office (school admins and above) and the child's own parents.
    access: { minRole: 'school_admin', orParent: true },
    response: changeAnswer,
  }),
  listDismissalChanges: route({
    method: 'GET',
    path: '/api/dismissal-changes',
    request: {
      query: schoolScopeSchema.extend({
        date: day('date').optional(),
        from: day('from').optional(),
        studentId: id.optional(),
      }),
    },
    access: { minRole: 'front_queue_wrangler', orParent: true },
    response: returns<{ changes: DismissalChangeView[] }>(),
  }),
  approveDismissalChange: route({
    method: 'POST',
    path: '/api/dismissal-changes/{id}/approve',
    request: changeParams,
    access: { minRole: 'school_admin' },
    response: changeAnswer,
  }),
  denyDismissalChange: route({
    method: 'POST',
    path: '/api/dismissal-changes/{id}/deny',
    request: { ...changeParams, body: denyChangeSchema },
    access: { minRole: 'school_admin' },
    response: changeAnswer,
  }),
  cancelDismissalChange: route({
    method: 'DELETE',
    path: '/api/dismissal-changes/{id}',
    request: changeParams,
    access: { minRole: 'school_admin', orParent: true },
    response: changeAnswer,
  }),
});

/** The parent portal's part: each child's way home today, and what their school offers. */
export const wayHomeParentRoutes = areaRoutes('parent', {
  parentWaysHome: route({
    method: 'GET',
    path: '/api/parent/ways-home',
    request: {},
    access: 'parent',
    response: returns<ParentWaysHome>(),
  }),
});
