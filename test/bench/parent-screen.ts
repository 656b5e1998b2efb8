/**
 * A parent's phone on the dashboard, as the web client behaves: its live
 * connection (the parent's own channel), a read of the children's status on
 * every message about them, and the status poll every 30 s. It checks that
 * every message names its own child and nothing else (a leak otherwise).
 */
import { PARENT_STATUS_POLL_MS } from '../../web/src/features/parent/parent.queries';
import type { BenchClient } from './http';
import type { Screen } from './screens';

export class ParentPhone {
  /** Messages about the parent's own child, by type. */
  readonly received = new Map<string, number>();
  /** Messages that named another child, or carried anything but the child's id and status. */
  leaks = 0;
  /** Status reads: one per message (coalesced while one is under way) and one per poll. */
  reads = 0;
  /** Of those, the polls. */
  polls = 0;
  private reading: Promise<void> | undefined;
  private again = false;
  private poller: NodeJS.Timeout | undefined;

  constructor(
    readonly screen: Screen,
    readonly client: BenchClient,
    readonly studentId: number,
  ) {
    screen.onMessage = (message) =>
      this.receive(message as { type?: string; data?: Record<string, unknown> });
    this.poller = setInterval(() => {
      this.polls++;
      void this.read();
    }, PARENT_STATUS_POLL_MS);
  }

  private receive({ type = 'UNKNOWN', data = {} }: { type?: string; data?: Record<string, unknown> }) {
    const fields = Object.keys(data).sort().join(',');
    const own =
      data.studentId === this.studentId &&
      ((type === 'QUEUE_UPDATE' && fields === 'studentId') ||
        (type === 'STUDENT_STATUS_UPDATE' &&
          (fields === 'sessionId,status,studentId' || fields === 'releasedAt,sessionId,status,studentId')));
    if (!own) {
      this.leaks++;
      return;
    }
    this.received.set(type, (this.received.get(type) ?? 0) + 1);
    void this.read();
  }

  /** Reads the status; a message during a read asks for one more read after it, not one each. */
  read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.again = false;
        this.reads++;
        await this.client.call('GET /api/parent/students/status', 'GET', '/api/parent/students/status');
      } while (this.again);
      this.reading = undefined;
    })();
    return this.reading;
  }

  /** Waits for a read under way, then stops polling. */
  async stop() {
    clearInterval(this.poller);
    await this.reading;
  }
}
