import type { StaffRole } from '@curbside/domain';

/** Route `handle` of a signed-in screen: the minimum role, if any. */
export interface RouteAccess {
  minRole?: StaffRole;
}

export const NO_PERMISSION = "You don't have permission to access this page.";
