import { describe, expect, it } from 'vitest';
import {
  connectionLook,
  Outbox,
  type OutboxItem,
  type OutboxStorage,
  updatedAgo,
} from '../src/features/queue/outbox';

const memoryStorage = (initial: OutboxItem[] = []): OutboxStorage => {
  let kept = [...initial];
  return {
    load: async () => [...kept],
    save: async (items) => {
      kept = [...items];
    },
  };
};

import { HttpError } from '../src/lib/http';

const item = (key: string, vehicle: string): OutboxItem => ({
  key,
  route: 'addToQueue',
  input: { body: { vehicleNumber: vehicle.replace('Car ', '') } },
  vehicle,
  action: 'add',
  at: 0,
});

describe('the outbox', () => {
  it('sends what waited in order, each with its own key, and empties', async () => {
    const sent: string[] = [];
    const outbox = new Outbox(memoryStorage(), async (it) => {
      sent.push(it.key);
    });
    await outbox.add(item('k1', 'Car 1'));
    await outbox.add(item('k2', 'Car 2'));
    await outbox.add(item('k3', 'Car 3'));
    expect(outbox.snapshot().items).toHaveLength(3);
    await outbox.flush();
    expect(sent).toEqual(['k1', 'k2', 'k3']);
    expect(outbox.snapshot().items).toEqual([]);
  });

  it('keeps what waits across a reload (the storage), and the same key is kept once', async () => {
    const storage = memoryStorage();
    const first = new Outbox(storage, async () => {
      throw new TypeError('Failed to fetch');
    });
    await first.add(item('k1', 'Car 1'));
    await first.add(item('k1', 'Car 1'));
    await first.flush();
    const sent: string[] = [];
    const reloaded = new Outbox(storage, async (it) => {
      sent.push(it.key);
    });
    await reloaded.flush();
    expect(sent).toEqual(['k1']);
  });

  it('is no change when the device kept nothing, and tells its screens when it kept something', async () => {
    // Issue 57 (h57t): the screens read it with useSyncExternalStore; a new snapshot of the same
    // empty outbox, landing while the front queue was drawn in a transition, drew it all again.
    const send = async () => {};
    const empty = new Outbox(memoryStorage(), send);
    const before = empty.snapshot();
    let told = 0;
    empty.subscribe(() => told++);
    await empty.flush();
    expect(empty.snapshot()).toBe(before);
    expect(told).toBe(0);
    const kept = new Outbox(memoryStorage([item('k1', 'Car 1')]), async () => {
      throw new TypeError('Failed to fetch');
    });
    const shown: number[] = [];
    kept.subscribe(() => shown.push(kept.snapshot().items.length));
    await kept.flush();
    expect(shown).toEqual([1]);
  });

  it('stops at a network failure and goes on from there later', async () => {
    let online = false;
    const sent: string[] = [];
    const outbox = new Outbox(memoryStorage(), async (it) => {
      if (!online) throw new TypeError('Failed to fetch');
      sent.push(it.key);
    });
    await outbox.add(item('k1', 'Car 1'));
    await outbox.add(item('k2', 'Car 2'));
    await outbox.flush();
    expect(outbox.snapshot().items.map((it) => it.key)).toEqual(['k1', 'k2']);
    online = true;
    await outbox.flush();
    expect(sent).toEqual(['k1', 'k2']);
  });

  it('keeps a 409 refusal beside its vehicle and sends the rest', async () => {
    const sent: string[] = [];
    const outbox = new Outbox(memoryStorage(), async (it) => {
      if (it.key === 'k1')
        throw new HttpError(409, '409: …', { message: 'Vehicle 1 is already in the queue' });
      sent.push(it.key);
    });
    await outbox.add(item('k1', 'Car 1'));
    await outbox.add(item('k2', 'Car 2'));
    await outbox.flush();
    expect(sent).toEqual(['k2']);
    expect(outbox.snapshot().refusals).toEqual([
      { key: 'k1', vehicle: 'Car 1', entryId: null, message: 'Vehicle 1 is already in the queue' },
    ]);
    outbox.dismiss('k1');
    expect(outbox.snapshot().refusals).toEqual([]);
  });

  it('turns a completion refused for children no teacher released into a question, and sends it confirmed, once, on Complete anyway', async () => {
    const sent: Array<{ key: string; body: unknown }> = [];
    const unreleased = [{ id: 3, firstName: 'Ava', lastName: 'Nguyen', vehicleNumber: '115' }];
    const outbox = new Outbox(memoryStorage(), async (it) => {
      const body = (it.input as { body: { confirmUnreleased?: boolean } }).body;
      if (!body.confirmUnreleased)
        throw new HttpError(409, '409: …', {
          message: 'Ava Nguyen has not been released by a teacher. Complete anyway?',
          unreleased,
        });
      sent.push({ key: it.key, body });
    });
    const completion: OutboxItem = {
      key: 'k1',
      route: 'updateBatch',
      input: { params: { id: 4 }, body: { status: 'completed' } },
      vehicle: 'Batch #2',
      action: 'complete batch',
      at: 0,
    };
    await outbox.add(completion);
    await outbox.flush();
    const [refusal] = outbox.snapshot().refusals;
    expect(refusal).toMatchObject({
      key: 'k1',
      vehicle: 'Batch #2',
      message: 'Ava Nguyen has not been released by a teacher. Complete anyway?',
      unreleased,
    });
    expect(sent).toEqual([]);

    await outbox.confirm('k1', 'k2');
    expect(sent).toEqual([{ key: 'k2', body: { status: 'completed', confirmUnreleased: true } }]);
    expect(outbox.snapshot()).toEqual({ items: [], refusals: [] });
    // A second answer finds nothing more to send.
    await outbox.confirm('k1', 'k3');
    expect(sent).toHaveLength(1);
  });

  it('says which state the connection is in, one at a time', () => {
    const now = Date.parse('2026-11-27T15:00:00Z');
    const facts = {
      online: true,
      live: 'open',
      retries: 0,
      gaveUp: false,
      waiting: 0,
      updatedAt: now,
      now,
    } as const;
    const text = (changes: Partial<Parameters<typeof connectionLook>[0]>) =>
      connectionLook({ ...facts, ...changes })?.text ?? null;
    expect(text({})).toBe('Online · Live');
    expect(text({ live: 'connecting' })).toBeNull();
    expect(text({ live: 'closed', retries: 2 })).toBe('Reconnecting (2)');
    expect(text({ live: 'closed', retries: 10, gaveUp: true })).toBe('Offline · Tap to reconnect');
    expect(text({ waiting: 1 })).toBe('Sending — 1 change waiting');
    expect(text({ online: false, live: 'closed', retries: 3, waiting: 3 })).toBe(
      'Offline — 3 changes waiting',
    );
    expect(text({ online: false, live: 'closed', waiting: 1 })).toBe('Offline — 1 change waiting');
    expect(text({ online: false, live: 'closed', updatedAt: now - 150_000 })).toBe(
      'Offline — last updated 2 min ago',
    );
    expect(text({ online: false, live: 'closed', updatedAt: now - 10_000 })).toBe(
      'Offline — last updated just now',
    );
    expect(connectionLook({ ...facts, live: 'closed', retries: 10, gaveUp: true })?.retry).toBe(true);
    expect(updatedAgo(0, now)).toBe('no data yet');
  });
});
