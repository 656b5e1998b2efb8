import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PICKUPS_PER_MINUTE,
  estimatedWaitMinutes,
  parentStatusLabel,
  parentStatusOf,
  pickupRate,
} from '../src/parent';

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
