import { z } from 'zod';
import type { StudentSummary, VehicleType } from './queue';

/** Classrooms, the teacher's view of students, and pickup codes (§3, §4, §5). */
export interface Classroom {
  id: number;
  schoolId: number;
  name: string;
  grade: string;
  teacherId: number | null;
  /** Deactivated classrooms leave the lists but stay for history. */
  active: boolean;
}

/** A student as the teacher screen sees them during a session. */
export interface TeacherStudent extends StudentSummary {
  classroom: { id: number; name: string } | null;
  inQueue: boolean;
  /** The vehicle or bus that picks the student up, when registered. */
  vehicle: { type: VehicleType; number: string; parentName: string | null } | null;
  vehicleType: VehicleType | null;
  number: string | null;
  entryId: string | null;
  queueStatus: 'waiting' | 'ready' | 'overflow' | null;
  queueTime: string | null;
  batchId: number | null;
  batchNumber: number | null;
  batchStatus: 'loading' | 'completed' | null;
  releasedAt: string | null;
  /** When the student's vehicle's pickup completed this session; null while in the queue again. */
  pickedUpAt: string | null;
}

/** Batch status labels of the teacher screen. */
export const studentBatchLabel = (
  student: Pick<TeacherStudent, 'inQueue' | 'queueStatus' | 'batchNumber'>,
) => {
  if (!student.inQueue) return 'Not in pickup queue';
  if (student.queueStatus === 'overflow') return 'In overflow area';
  if (student.batchNumber !== null) return `In Batch #${student.batchNumber}`;
  return 'Waiting in queue';
};

/** Codes avoid look-alike characters (no 0/O, 1/I/L). */
export const PICKUP_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PICKUP_CODE_LENGTH = 4;
export const PICKUP_CODE_TTL_MS = 10 * 60 * 1000;

export interface PickupCode {
  code: string;
  studentId: number;
  schoolId: number;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export type PickupCodeState = 'active' | 'used' | 'expired';

export const pickupCodeState = (
  code: Pick<PickupCode, 'usedAt' | 'expiresAt'>,
  now = Date.now(),
): PickupCodeState => (code.usedAt ? 'used' : Date.parse(code.expiresAt) <= now ? 'expired' : 'active');

/** A new code may be made when none exists or the current one is used or expired. */
export const canGenerateCode = (current: Pick<PickupCode, 'usedAt' | 'expiresAt'> | null, now = Date.now()) =>
  current === null || pickupCodeState(current, now) !== 'active';

/** What a typed code becomes: trimmed, uppercased, at most 4 characters. */
export const normalizeCode = (raw: string) => raw.trim().toUpperCase().slice(0, PICKUP_CODE_LENGTH);

export const pickupCodeSchema = z
  .string({ message: 'Enter the 4-character pickup code' })
  .transform(normalizeCode)
  .pipe(
    z
      .string()
      .length(PICKUP_CODE_LENGTH, 'Enter the 4-character pickup code')
      .regex(new RegExp(`^[${PICKUP_CODE_ALPHABET}]+$`), 'That is not a valid pickup code'),
  );
