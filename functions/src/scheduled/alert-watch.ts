import { EMERGENCY_UNACKNOWLEDGED_MS } from '@curbside/api';
import { alerts } from '@curbside/store';
import { db } from '../lib/context';
import { countMetric, log, loggedInvocation } from '../lib/log';

/**
 * Every minute: counts the emergency alerts raised 2 minutes ago or more that
 * nobody has acknowledged, every school's, as the metric the stack's alarm
 * watches (`EmergencyAlertsUnacknowledged`, sent every run, 0 included: an
 * alarm with no data would not tell a quiet minute from a broken watch).
 */
export const handler = loggedInvocation('schedule alert-watch', async () => {
  const before = new Date(Date.now() - EMERGENCY_UNACKNOWLEDGED_MS).toISOString();
  const unanswered = await alerts.unansweredEmergencies(db, before);
  countMetric('emergenciesUnacknowledged', unanswered.length);
  if (unanswered.length > 0) {
    log('warn', 'emergency alerts nobody acknowledged', {
      alerts: unanswered.map((alert) => ({
        id: alert.id,
        school_id: alert.schoolId,
        raised: alert.createdAt,
      })),
    });
  }
  return { unacknowledged: unanswered.map((alert) => alert.id) };
});
