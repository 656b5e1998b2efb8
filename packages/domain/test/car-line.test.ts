import { describe, expect, it } from 'vitest';
import {
  ALERT_REPEAT_MS,
  ALERT_TONES,
  alertAnnouncement,
  alertButtonLabel,
  alertRepeats,
  bySeverity,
  contactLines,
  isOverdue,
  vehicleDescription,
  vehicleLabel,
  vehicleName,
  vehicleQueuedToast,
  waitSeconds,
} from '../src/car-line';
import { formatAgo } from '../src/format';
import { alertOwners, alertRaiser } from '../src/queue';

const camry = {
  number: '12',
  type: 'car' as const,
  make: 'Toyota',
  model: 'Camry',
  color: 'Silver',
  parentName: 'Maria Lopez',
  alternateContactName: 'Jose Lopez',
};

describe('vehicle labels', () => {
  it('shows buses with a B prefix and cars with the bare number', () => {
    expect(vehicleLabel('bus', '3')).toBe('B3');
    expect(vehicleLabel('car', '12')).toBe('12');
    expect(vehicleName('bus', '3')).toBe('Bus B3');
    expect(vehicleName('car', '12')).toBe('Car 12');
  });

  it('describes a vehicle by make, model and color, leaving out what is unknown', () => {
    expect(vehicleDescription(camry)).toBe('Toyota Camry (Silver)');
    expect(vehicleDescription({ make: 'Toyota', model: null, color: null })).toBe('Toyota');
    expect(vehicleDescription({ make: null, model: null, color: 'Red' })).toBe('Red');
    expect(vehicleDescription({ make: ' ', model: null, color: '' })).toBeNull();
    expect(vehicleDescription(null)).toBeNull();
  });
});

describe('the vehicle-queued toast', () => {
  it('names the vehicle, its looks and both contacts', () => {
    expect(vehicleQueuedToast(camry)).toEqual({
      title: 'Vehicle added successfully:',
      lines: [
        'Car 12: Toyota Camry (Silver)',
        'Primary contact: Maria Lopez',
        'Secondary contact: Jose Lopez',
      ],
    });
  });

  it('says when the number is not on the roster', () => {
    expect(vehicleQueuedToast({ number: '999', type: 'car' }, false).lines).toEqual([
      'Car 999: Vehicle details unavailable',
      'No primary contact',
      'No secondary contact',
      'Not registered: this number is not on the school’s vehicle list',
    ]);
    expect(vehicleQueuedToast(camry, true).lines).not.toContain(
      'Not registered: this number is not on the school’s vehicle list',
    );
  });

  it('falls back when details and contacts are missing', () => {
    const unknown = { ...camry, number: '77', make: null, model: null, color: null };
    expect(vehicleQueuedToast({ ...unknown, parentName: null, alternateContactName: '  ' }).lines).toEqual([
      'Car 77: Vehicle details unavailable',
      'No primary contact',
      'No secondary contact',
    ]);
    expect(vehicleQueuedToast(null).lines).toEqual([
      'Vehicle details unavailable',
      'No primary contact',
      'No secondary contact',
    ]);
    expect(vehicleQueuedToast({ ...unknown, type: 'bus', number: '3' }).lines[0]).toBe(
      'Bus B3: Vehicle details unavailable',
    );
  });

  it('keeps the contact fallbacks exact', () => {
    expect(contactLines({ parentName: null, alternateContactName: null })).toEqual([
      'No primary contact',
      'No secondary contact',
    ]);
  });
});

describe('queue timing', () => {
  const queued = '2026-03-02T15:00:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('highlights an entry only after more than 10 minutes', () => {
    expect(isOverdue({ queueTime: queued }, at('2026-03-02T15:10:00.000Z'))).toBe(false);
    expect(isOverdue({ queueTime: queued }, at('2026-03-02T15:10:00.001Z'))).toBe(true);
  });

  it('measures the wait from queue time to exit time', () => {
    expect(waitSeconds({ queueTime: queued, exitTime: '2026-03-02T15:04:05.000Z' })).toBe(245);
    expect(waitSeconds({ queueTime: queued, exitTime: null })).toBeNull();
  });
});

describe('alerts', () => {
  it('plays three 880 Hz beeps 300 ms apart for an emergency and one 0.5 s 440 Hz tone for help', () => {
    expect(ALERT_TONES.emergency.map((tone) => [tone.frequency, tone.start])).toEqual([
      [880, 0],
      [880, 0.3],
      [880, 0.6],
    ]);
    expect(ALERT_TONES.emergency.every((tone) => tone.duration < 0.3)).toBe(true);
    expect(ALERT_TONES.help).toEqual([{ frequency: 440, start: 0, duration: 0.5 }]);
  });

  it('keeps emergency toasts open until closed and lets help toasts close on their own', () => {
    const emergency = alertAnnouncement({
      type: 'emergency',
      location: 'Front Queue',
      message: 'Emergency assistance needed at Front Queue',
    });
    expect(emergency).toEqual({
      title: 'EMERGENCY ALERT',
      message: 'Emergency assistance needed at Front Queue',
      autoClose: false,
    });
    const help = alertAnnouncement({
      type: 'help',
      location: 'Front Queue',
      message: 'Help requested at Front Queue',
    });
    expect(help.autoClose).toBeUndefined();
    expect(help.title).toBe('Help Requested');
  });

  it('tells the screen that raised an alert that the school admin has been notified', () => {
    const raised = alertAnnouncement(
      { type: 'help', location: 'Gate', message: 'Help requested at Gate' },
      true,
    );
    expect(raised.message).toBe('Help requested at Gate. The school admin has been notified.');
  });

  it('labels the buttons while their alert is active', () => {
    expect(alertButtonLabel('help', true)).toBe('Help Requested');
    expect(alertButtonLabel('emergency', true)).toBe('EMERGENCY ACTIVE');
    expect(alertButtonLabel('help', false)).toBe('Help');
    expect(alertButtonLabel('emergency', false)).toBe('Emergency');
  });
});

describe('the alert banner', () => {
  const bus = { source: 'bus_driver', metadata: { busId: 'B3', busName: 'Bus 3' }, location: 'Bus 3' };

  it('names who raised an alert: the staff member, or the bus driver', () => {
    expect(alertRaiser({ raisedBy: { userId: 4, name: 'Ms Lopez' }, location: 'Front Queue' })).toBe(
      'Ms Lopez',
    );
    expect(alertRaiser(bus)).toBe('Bus 3 driver');
    expect(alertRaiser({ ...bus, metadata: { busId: 'B3', busName: '' } })).toBe('Bus B3 driver');
    expect(alertRaiser({ location: 'Front Queue' })).toBe('Staff');
  });

  it('says who is on it', () => {
    expect(alertOwners([])).toBeNull();
    expect(alertOwners([{ name: 'Ms Lopez' }])).toBe('Ms Lopez is on it');
    expect(alertOwners([{ name: 'Ms Lopez' }, { name: 'Mr Kim' }, { name: 'Alex Admin' }])).toBe(
      'Ms Lopez, Mr Kim and Alex Admin are on it',
    );
  });

  it('repeats an active emergency until someone is on it; help never', () => {
    expect(alertRepeats({ type: 'emergency', status: 'active', acknowledgements: [] })).toBe(true);
    expect(alertRepeats({ type: 'emergency', status: 'active' })).toBe(true);
    expect(
      alertRepeats({
        type: 'emergency',
        status: 'active',
        acknowledgements: [{ userId: 1, name: 'Ms Lopez', at: '2026-03-02T15:00:00.000Z' }],
      }),
    ).toBe(false);
    expect(alertRepeats({ type: 'emergency', status: 'dismissed', acknowledgements: [] })).toBe(false);
    expect(alertRepeats({ type: 'help', status: 'active', acknowledgements: [] })).toBe(false);
    expect(ALERT_REPEAT_MS).toBe(30_000);
  });

  it('puts the most severe first: emergencies, then help, the newest first within each', () => {
    const at = (minute: number) => `2026-03-02T15:${String(minute).padStart(2, '0')}:00.000Z`;
    const alerts = [
      { id: 1, type: 'help' as const, createdAt: at(1) },
      { id: 2, type: 'emergency' as const, createdAt: at(2) },
      { id: 3, type: 'help' as const, createdAt: at(3) },
      { id: 4, type: 'emergency' as const, createdAt: at(0) },
      { id: 5, type: 'help' as const, createdAt: at(3) },
    ];
    expect([...alerts].sort(bySeverity).map((alert) => alert.id)).toEqual([2, 4, 5, 3, 1]);
  });

  it('says how long ago an alert was raised', () => {
    const raised = Date.parse('2026-03-02T15:00:00.000Z');
    expect(formatAgo(raised, raised + 4_000)).toBe('just now');
    expect(formatAgo(raised, raised + 45_000)).toBe('45 s ago');
    expect(formatAgo(raised, raised + 3 * 60_000 + 5_000)).toBe('3 min ago');
    expect(formatAgo(raised, raised + 65 * 60_000)).toBe('1 h 5 min ago');
  });
});
