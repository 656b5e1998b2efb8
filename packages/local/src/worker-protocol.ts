/** The messages between the laptop runtime's main thread and its worker threads (structured clones). */
import type { JobRun } from '@curbside/functions/lib/jobs';
import type { MeterSnapshot } from '@curbside/store';
import type { OutgoingMail } from './mail';
import type { ManagementAnswer } from './websocket';

export interface WorkerSetup {
  /** The management API's endpoint the handlers post to (`WS_MANAGEMENT_ENDPOINT`). */
  managementEndpoint: string;
  /** The emulated SES endpoint the handlers send mail to (`SES_ENDPOINT`). */
  mailEndpoint?: string;
  /** Handler modules loaded from these files instead of `@curbside/functions/{module}` (tests). */
  modules?: Record<string, string>;
}

export type ToWorker =
  | { type: 'invoke'; id: number; module: string; event: unknown; timeoutMs?: number }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'warm'; id: number; modules: string[] }
  /** Hand over what the meter counted outside invocations (a relay's timer, say). */
  | { type: 'collect'; id: number }
  | { type: 'stopping' };

export interface ManagementCall {
  method: string;
  connectionId: string;
  body: Uint8Array;
}

/** A fan-out's posts, made in the same turn of the worker's event loop, cross as one message. */
export type Question =
  | { kind: 'management'; calls: ManagementCall[] }
  | { kind: 'job'; run: JobRun }
  /** A message the handler sent through the emulated SES: the main thread keeps it (answers its id). */
  | { kind: 'mail'; mail: OutgoingMail };

export type FromWorker =
  | {
      type: 'result';
      id: number;
      ok: true;
      value: unknown;
      meter: MeterSnapshot;
    }
  | {
      type: 'result';
      id: number;
      ok: false;
      error: { message: string; stack: string };
      meter: MeterSnapshot;
    }
  | { type: 'ask'; id: number; question: Question }
  | { type: 'warmed'; id: number }
  | { type: 'collected'; id: number; meter: MeterSnapshot };

export type { ManagementAnswer };
