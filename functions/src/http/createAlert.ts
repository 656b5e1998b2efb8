import { routes } from '@curbside/api';
import { ValidationError } from '@curbside/domain';
import { httpHandler } from '../lib/http';
import { earlyToggle, toggleAlert } from '../services/alerts';
import { requireUser } from '../services/auth';
import { raiseBusAlert } from '../services/buses';
import { ownSchoolId } from '../services/tenancy';

/**
 * `POST /api/alerts`: the alert panel's toggle raises an alert, or dismisses
 * the same one (`dismissed: true`); a bus driver's alert (source
 * `bus_driver`, sent with the driver link) is always raised. A staff toggle's
 * first reads ride in the sign-in's read (`earlyToggle`).
 */
export const handler = httpHandler(
  routes.createAlert,
  async ({ user, busLink, body, early }) => {
    if ('source' in body) {
      return raiseBusAlert(busLink ?? { schoolId: ownSchoolId(requireUser(user)), kind: 'driver' }, body);
    }
    if (busLink) throw new ValidationError('A bus driver alert needs source bus_driver');
    return toggleAlert(requireUser(user), body, early);
  },
  [],
  { early: earlyToggle },
);
