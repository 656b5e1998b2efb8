import { describe, expect, it } from 'vitest';
import { busPositions } from '../src/bus';
import { createDb } from '../src/db';

const db = createDb({
  table: process.env.TABLE_NAME as string,
  endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
});

/** A school id no other test uses (the gate is one item per school). */
const schoolId = 900_000 + Math.floor(Math.random() * 90_000);
const SECOND = 1000;

describe('the bus fan-out gate (issues 31 and 33)', () => {
  it('lets one claim a second, and tells every later claim of it the last two fan-outs and their buses', async () => {
    const t = 1_800_000_000_000;
    const first = await busPositions.claimFanOut(db, schoolId, SECOND, t + 100, 'B1');
    expect(first).toEqual({
      claimed: true,
      previousAt: 0,
      gate: { slot: t / SECOND, bus: 'B1', prevSlot: -1, prevBus: '' },
    });

    // The same second, another bus (another instance): refused, with the gate as it stands.
    const late = await busPositions.claimFanOut(db, schoolId, SECOND, t + 600, 'B2');
    expect(late).toEqual({
      claimed: false,
      gate: { slot: t / SECOND, bus: 'B1', prevSlot: -1, prevBus: '' },
    });

    // The next second: claimed by B2, which learns the fan-out before it (B1's).
    const next = await busPositions.claimFanOut(db, schoolId, SECOND, t + SECOND + 50, 'B2');
    expect(next).toEqual({
      claimed: true,
      previousAt: t + 100,
      gate: { slot: t / SECOND + 1, bus: 'B2', prevSlot: t / SECOND, prevBus: 'B1' },
    });
    const refused = await busPositions.claimFanOut(db, schoolId, SECOND, t + SECOND + 900, 'B3');
    expect(refused).toEqual({
      claimed: false,
      gate: { slot: t / SECOND + 1, bus: 'B2', prevSlot: t / SECOND, prevBus: 'B1' },
    });
  });
});
