/**
 * A parent's phone on the dashboard, as the web client behaves: its live
 * connection (the parent's own channel), the children's status read as the
 * dashboard opens (`read`, before the rush: an instance's first read of a
 * parent reads their links whole, 4 to 7 DynamoDB calls, and is no poll), a
 * read on every message about them (spread over a few seconds when the line
 * moved), and the status poll every 30 s at the phone's own phase. It checks that
 * every message names its own child and nothing else (a leak otherwise).
 */
import { PARENT_STATUS_POLL_MS, spreadDelay } from '@curbside/web/cache';
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
  private readonly spread = new Set<NodeJS.Timeout>();

  constructor(
    readonly screen: Screen,
    readonly client: BenchClient,
    readonly studentId: number,
  ) {
    screen.onMessage = (message) =>
      this.receive(message as { type?: string; data?: Record<string, unknown> });
    // Phones open the dashboard at moments of their own: each polls at its own phase of the 30 s.
    const poll = () => {
      this.polls++;
      void this.read();
    };
    this.poller = setTimeout(
      () => {
        poll();
        this.poller = setInterval(poll, PARENT_STATUS_POLL_MS);
      },
      Math.floor(Math.random() * PARENT_STATUS_POLL_MS),
    );
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
    // As the web client: the line moving is read at the phone's own moment, its own child's change at once.
    if (type === 'QUEUE_UPDATE') {
      const timer = setTimeout(() => {
        this.spread.delete(timer);
        void this.read();
      }, spreadDelay());
      this.spread.add(timer);
    } else void this.read();
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
        await this.client.call('parentStudentStatus', 'GET', '/api/parent/students/status');
      } while (this.again);
      this.reading = undefined;
    })();
    return this.reading;
  }

  /** Waits for a read under way, then stops polling. */
  async stop() {
    clearTimeout(this.poller);
    clearInterval(this.poller);
    for (const timer of this.spread) clearTimeout(timer);
    await this.reading;
  }
}
