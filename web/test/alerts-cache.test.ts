import { driverAlertView, type LiveEvent } from '@curbside/api';
import type { Alert } from '@curbside/domain';
import { describe, expect, it } from 'vitest';
import { schoolAlertsAfter } from '../src/features/alerts/alerts.cache';

/** The banner's list of the school's active alerts, patched by the live events. */
const alert = (id: number, change: Partial<Alert> = {}): Alert => ({
  id,
  sessionId: null,
  schoolId: 1,
  type: 'emergency',
  status: 'active',
  location: 'Bus 3',
  message: 'Emergency Alert from Bus 3',
  createdAt: '2026-03-02T15:00:00.000Z',
  dismissedAt: null,
  source: 'bus_driver',
  metadata: { busId: 'B3', busName: 'Bus 3' },
  acknowledgements: [],
  ...change,
});
const lopez = { userId: 9, name: 'Ms Lopez', at: '2026-03-02T15:01:00.000Z' };

describe('the school alert banner list', () => {
  it('puts a raised alert first, once', () => {
    const list = [alert(1)];
    const event: LiveEvent = { type: 'ALERT_CREATED', data: alert(2) };
    const after = schoolAlertsAfter(list, event);
    expect(after.map((item) => item.id)).toEqual([2, 1]);
    expect(schoolAlertsAfter(after, event)).toBe(after);
  });

  it('shows who is on an alert from a staff copy, never goes back to an older one, ignores a driver copy', () => {
    const acknowledged = alert(1, { acknowledgements: [lopez] });
    const after = schoolAlertsAfter([alert(1)], { type: 'ALERT_ACKNOWLEDGED', data: acknowledged });
    expect(after[0]?.acknowledgements).toEqual([lopez]);
    expect(
      schoolAlertsAfter(after, { type: 'ALERT_ACKNOWLEDGED', data: alert(1) })[0]?.acknowledgements,
    ).toEqual([lopez]);
    const list = [alert(1)];
    expect(schoolAlertsAfter(list, { type: 'ALERT_ACKNOWLEDGED', data: driverAlertView(acknowledged) })).toBe(
      list,
    );
  });

  it('takes a dismissed alert out', () => {
    const after = schoolAlertsAfter([alert(2), alert(1)], {
      type: 'ALERT_DISMISSED',
      data: { id: 2, removed: true },
    });
    expect(after.map((item) => item.id)).toEqual([1]);
  });
});
