import { describe, expect, it } from 'vitest';
import {
  childLabels,
  DEFAULT_PICKUPS_PER_MINUTE,
  estimatedWaitMinutes,
  parentStatusLabel,
  parentStatusOf,
  pickupRate,
} from '../src/parent';
import { addedByText } from '../src/parent-invites';

const now = Date.parse('2026-11-24T15:30:00Z');
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000).toISOString();

describe("a parent's view of their child", () => {
  it('labels the four statuses as the specification does, and anything else Unknown', () => {
    expect(parentStatusLabel('not_in_queue')).toBe('Not in Queue');
    expect(parentStatusLabel('in_queue')).toBe('In Queue');
    expect(parentStatusLabel('ready_for_pickup')).toBe('Ready for Pickup');
    expect(parentStatusLabel('picked_up')).toBe('Picked Up');
    expect(parentStatusLabel('loading')).toBe('Unknown');
  });

  it('is in the queue while the car waits, ready once released or ready, picked up after', () => {
    expect(parentStatusOf(undefined, null, null)).toBe('not_in_queue');
    expect(parentStatusOf({ status: 'waiting' }, null, null)).toBe('in_queue');
    expect(parentStatusOf({ status: 'overflow' }, null, null)).toBe('in_queue');
    expect(parentStatusOf({ status: 'waiting' }, minutesAgo(1), null)).toBe('ready_for_pickup');
    expect(parentStatusOf({ status: 'ready' }, null, null)).toBe('ready_for_pickup');
    expect(parentStatusOf(undefined, minutesAgo(2), minutesAgo(1))).toBe('picked_up');
    // The car came back after a pickup: it is in the queue again.
    expect(parentStatusOf({ status: 'waiting' }, null, minutesAgo(5))).toBe('in_queue');
  });
});

describe('the estimated wait', () => {
  it('uses the default rate of the vehicle type before three pickups of that type in the last 10 minutes', () => {
    expect(pickupRate([], 'car', now)).toBe(DEFAULT_PICKUPS_PER_MINUTE.car);
    expect(pickupRate([minutesAgo(1), minutesAgo(2)], 'car', now)).toBe(DEFAULT_PICKUPS_PER_MINUTE.car);
    // Pickups older than 10 minutes do not count.
    expect(pickupRate([minutesAgo(1), minutesAgo(2), minutesAgo(11)], 'bus', now)).toBe(
      DEFAULT_PICKUPS_PER_MINUTE.bus,
    );
  });

  it("is the session's pickups of the window over the minutes they took", () => {
    // 6 pickups over the last 3 minutes: 2 a minute.
    const six = [0.5, 1, 1.5, 2, 2.5, 3].map(minutesAgo);
    expect(pickupRate(six, 'car', now)).toBeCloseTo(2);
    // 3 pickups within the last half minute count over at least one minute.
    expect(pickupRate([minutesAgo(0.1), minutesAgo(0.2), minutesAgo(0.3)], 'car', now)).toBe(3);
  });

  it('is the place in line over the rate, rounded up to whole minutes, at least 1', () => {
    expect(estimatedWaitMinutes(1, 4)).toBe(1);
    expect(estimatedWaitMinutes(10, 2)).toBe(5);
    expect(estimatedWaitMinutes(11, 2)).toBe(6);
    expect(estimatedWaitMinutes(90, 1)).toBe(90);
    expect(estimatedWaitMinutes(3, 0)).toBe(300);
  });
});

describe('childLabels (issue 50)', () => {
  it("names a family's children by first name, in full where two share one", () => {
    const labels = childLabels([
      { id: 1, firstName: 'Ava', lastName: 'Martinez' },
      { id: 2, firstName: 'Leo', lastName: 'Martinez' },
      { id: 3, firstName: 'AVA', lastName: 'Johnson' },
    ]);
    expect([...labels.values()]).toEqual(['Ava Martinez', 'Leo', 'AVA Johnson']);
  });
});

describe('addedByText (issue 49)', () => {
  const zone = 'America/Chicago';
  // 15:30 UTC is 9:30 AM in Chicago on 24 November 2026.
  it('says who added an adult and when, in the school’s time zone', () => {
    expect(addedByText({ addedBy: 'Jordan Martinez', createdAt: minutesAgo(15) }, zone, now)).toBe(
      'Added by Jordan Martinez today at 9:15 AM',
    );
    expect(addedByText({ addedBy: null, createdAt: '2026-11-02T22:05:00Z' }, zone, now)).toBe(
      'Added by a parent on Nov 2 at 4:05 PM',
    );
    expect(addedByText({ addedBy: 'Pat', createdAt: '2025-12-30T18:00:00Z' }, zone, now)).toBe(
      'Added by Pat on Dec 30, 2025 at 12:00 PM',
    );
  });
  it('counts "today" by the school’s calendar, not UTC’s', () => {
    // 04:00 UTC on the 24th is still the evening of the 23rd in Chicago.
    expect(addedByText({ addedBy: 'Pat', createdAt: '2026-11-24T04:00:00Z' }, zone, now)).toBe(
      'Added by Pat on Nov 23 at 10:00 PM',
    );
  });
});
