import { describe, expect, it } from 'vitest';
import {
  arrivalSettingsOf,
  distanceM,
  familyCar,
  fenceCheck,
  OTHER_SCHOOL_PLACARD,
  outsideFenceMessage,
  parsePlacardCode,
  placardCode,
} from '../src';

/** Metres per degree of latitude on the haversine's sphere. */
const M_PER_DEGREE = (6_371_008.8 * Math.PI) / 180;
const fence = { lat: 40, lon: -90, radiusM: 200 };
const north = (metres: number, accuracy = 0) => ({ lat: 40 + metres / M_PER_DEGREE, lon: -90, accuracy });

describe('the geofence', () => {
  it('measures great-circle distance in metres', () => {
    expect(Math.round(distanceM(fence, north(2300)))).toBe(2300);
  });

  it('counts the accuracy in the parent’s favour, up to 100 m', () => {
    expect(fenceCheck(fence, north(199))).toEqual({ inside: true, distanceM: 199 });
    expect(fenceCheck(fence, north(250)).inside).toBe(false);
    expect(fenceCheck(fence, north(250, 60)).inside).toBe(true);
    expect(fenceCheck(fence, north(310, 5000)).inside).toBe(false);
    expect(fenceCheck(fence, north(300, 5000)).inside).toBe(true);
  });

  it('tells the distance as a parent reads it', () => {
    expect(outsideFenceMessage(2300)).toBe('You are 2.3 km from the school; announce when you arrive');
    expect(outsideFenceMessage(347)).toBe('You are 350 m from the school; announce when you arrive');
  });

  it('reads a stored setting, or off', () => {
    expect(arrivalSettingsOf(undefined)).toEqual({ mode: 'off', geofence: null });
    expect(arrivalSettingsOf({ mode: 'auto', geofence: { ...fence, radiusM: 10 } })).toEqual({
      mode: 'off',
      geofence: null,
    });
    expect(arrivalSettingsOf({ mode: 'confirm', geofence: fence })).toEqual({
      mode: 'confirm',
      geofence: fence,
    });
  });
});

describe("the family's car", () => {
  const car = (id: number, studentIds: number[], extra: Record<string, unknown> = {}) => ({
    id,
    type: 'car' as const,
    active: true,
    studentIds,
    parentName: null as string | null,
    parentPhone: null as string | null,
    ...extra,
  });

  it('is the active car that carries the most of today’s riders, then the parent’s own', () => {
    const fleet = [
      car(1, [10]),
      car(2, [10, 11]),
      car(3, [10, 11], { parentPhone: '(555) 010-1234' }),
      car(4, [10, 11, 12], { active: false }),
      { ...car(5, [10, 11, 12]), type: 'bus' as const },
    ];
    expect(familyCar([10, 11, 12], fleet, { name: 'Pat', phone: '555-010-1234' })?.id).toBe(3);
    expect(familyCar([10, 11], fleet, { name: 'Pat', phone: null })?.id).toBe(2);
    expect(familyCar([99], fleet, { name: 'Pat', phone: null })).toBeUndefined();
  });
});

describe('the placard QR code', () => {
  it('names the school and the vehicle, and reads back', () => {
    const code = placardCode({ schoolId: 12, vehicleType: 'bus', vehicleNumber: ' 7a ' });
    expect(code).toBe('CURBSIDE:1:12:BUS:7A');
    expect(parsePlacardCode(code)).toEqual({ schoolId: 12, vehicleType: 'bus', vehicleNumber: '7A' });
  });

  it('refuses what is not a placard of this format', () => {
    for (const text of [
      '',
      'https://example.com',
      'CURBSIDE:2:1:CAR:101',
      'CURBSIDE:1:0:CAR:101',
      'CURBSIDE:1:1:VAN:1',
    ]) {
      expect(parsePlacardCode(text)).toBeNull();
    }
    expect(OTHER_SCHOOL_PLACARD).toBe("This placard is another school's. It was not queued.");
  });
});
