import { type VehicleType, vehicleNumberProblem } from './queue';

/**
 * What a placard's and a lanyard's QR code says (issue 53,
 * docs/adr/0024-placard-qr-codes.md): the school and the vehicle, nothing
 * personal. `CURBSIDE:1:{schoolId}:{CAR|BUS}:{NUMBER}` — plain text (a phone
 * camera shows it, opens nothing), in QR's alphanumeric characters only (upper
 * case, digits, `:`), so the code stays small and scans from across a car.
 */
export const PLACARD_CODE_PREFIX = 'CURBSIDE';
/** The format's version: a later one is refused by this reader (never misread). */
export const PLACARD_CODE_VERSION = 1;

const TYPE_CODES: Readonly<Record<VehicleType, string>> = { car: 'CAR', bus: 'BUS' };

export interface PlacardVehicle {
  schoolId: number;
  vehicleType: VehicleType;
  vehicleNumber: string;
}

/** The text of a vehicle's placard code. */
export const placardCode = ({ schoolId, vehicleType, vehicleNumber }: PlacardVehicle): string =>
  [
    PLACARD_CODE_PREFIX,
    PLACARD_CODE_VERSION,
    schoolId,
    TYPE_CODES[vehicleType],
    vehicleNumber.trim().toUpperCase(),
  ].join(':');

/** The vehicle a scanned text names, or null when it is no Curbside placard (of this format). */
export const parsePlacardCode = (text: string): PlacardVehicle | null => {
  const match = /^CURBSIDE:(\d+):([1-9]\d{0,9}):(CAR|BUS):([A-Z0-9]+)$/.exec(text.trim());
  if (!match || Number(match[1]) !== PLACARD_CODE_VERSION) return null;
  const vehicleNumber = match[4] as string;
  if (vehicleNumberProblem(vehicleNumber) !== null) return null;
  return {
    schoolId: Number(match[2]),
    vehicleType: match[3] === 'BUS' ? 'bus' : 'car',
    vehicleNumber,
  };
};

/** Whether a scanned text looks like a Curbside placard at all (of any version): "not ours" versus "not a placard". */
export const isPlacardLike = (text: string): boolean => text.trim().startsWith(`${PLACARD_CODE_PREFIX}:`);

/** A placard of another school, refused at the curb. */
export const OTHER_SCHOOL_PLACARD = "This placard is another school's. It was not queued.";
/** A code that is not a Curbside placard. */
export const NOT_A_PLACARD = 'This is not a Curbside placard.';
