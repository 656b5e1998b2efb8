import { adminRoutes } from './admin';
import { arrivalRoutes } from './arrivals';
import { authRoutes } from './auth';
import { busRoutes } from './bus';
import { carLineRoutes } from './carLine';
import {
  authorizedPickupParentRoutes,
  authorizedPickupStaffRoutes,
  inviteAdminRoutes,
  inviteAuthRoutes,
} from './invites';
import { parentRoutes } from './parent';
import { sisRoutes } from './sis';
import { teacherRoutes } from './teacher';
import { wayDismissalRoutes } from './way-dismissal';
import { wayHomeParentRoutes, wayHomeRoutes } from './ways-home';

export { AUTHORIZED_PICKUPS_READ_MAX, type StudentsAuthorizedPickup } from './invites';
export * from './shared';

/**
 * The route table: the single source of truth for every HTTP call. Handlers
 * (`functions/src/http/{name}.ts`), the CDK stack, the laptop gateway and the
 * web client all read it.
 */
export const routes = {
  ...authRoutes,
  ...carLineRoutes,
  ...teacherRoutes,
  ...adminRoutes,
  ...parentRoutes,
  ...busRoutes,
  ...sisRoutes,
  ...inviteAdminRoutes,
  ...inviteAuthRoutes,
  ...authorizedPickupParentRoutes,
  ...authorizedPickupStaffRoutes,
  ...wayHomeRoutes,
  ...wayHomeParentRoutes,
  ...arrivalRoutes,
  ...wayDismissalRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

export const routeList = Object.values(routes);
