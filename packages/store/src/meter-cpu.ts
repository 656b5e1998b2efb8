import { type AsyncHook, AsyncLocalStorage, createHook } from 'node:async_hooks';

/** The main thread's time in one invocation's own code, in ms (`meter.cpuMs`). */
export interface CpuTally {
  ms: number;
}

/**
 * The handler's own CPU (issue 54): the thread's CPU time while code of an
 * invocation's async context runs, charged at the switches between owners
 * (ADR 0027, "(h54n)"). An async hook notes each callback's owner at its
 * `before` (the tally of the context it runs in, or none) and the clock is read
 * only where the owner changes: the CPU since the last switch goes to the owner
 * that ran, so a chain of one invocation's promise reactions, which run one
 * after another, is one stretch and reads the clock once at each end, not at
 * every reaction's start and end (some 130 segments a DynamoDB call).
 *
 * A callback entered from inside another (nested) pauses the outer one and its
 * `after` gives the thread back to the outer one's owner, so nothing counts
 * twice. Between two callbacks at the top (the event loop's own work: polling,
 * reading sockets before their callback), the CPU goes to the owner of the
 * callback before: a few microseconds a return to the event loop, charged to
 * the invocation that ran last rather than to none. CPU, not wall time: a
 * callback the machine's other work delays is not charged the wait for a core.
 * What an invocation awaits (DynamoDB, a timer) runs no callback of its own and
 * adds nothing. Kept on the process, as the meter's labels are; the hook is
 * enabled by the first metered run and never when the meter is off.
 *
 * The clock is the thread's CPU time (`process.threadCpuUsage()`), brought up
 * to date before each read by a read of the process's (`process.cpuUsage()`;
 * both about 1.2 µs). On Linux the thread's clock alone moves only at the
 * kernel's tick (4 ms here) while the thread runs and settles the rest when the
 * thread blocks: before h54n, a handler's burst of a millisecond before it
 * waited on DynamoDB was seen only after the wait and charged to no one (200
 * bursts of 0.5 ms: 10 ms seen inside them, 106 ms after). Reading the
 * process's clock makes the kernel account the running thread's time up to
 * now (`task_sched_runtime`), so the thread's clock is then exact to the
 * microsecond (the same bursts: 100 ms seen inside them). The process's own
 * figure would count its other threads too (V8's collector and compiler
 * helpers: 18% of the server's CPU in `meter-cost.ts`), so it is not the one charged.
 */
const CPU = Symbol.for('curbside.meter.cpu.owners');
interface CpuState {
  tallies: AsyncLocalStorage<CpuTally>;
  /** The owners of the callbacks open now, outermost first (empty at the event loop). */
  owners: Array<CpuTally | undefined>;
  /** The owner the thread's CPU goes to since `since`. */
  current: CpuTally | undefined;
  since: number;
  hook?: AsyncHook | undefined;
  drop?: (() => void) | undefined;
}
const cpuState = globalThis as { [CPU]?: CpuState };
cpuState[CPU] ??= { tallies: new AsyncLocalStorage<CpuTally>(), owners: [], current: undefined, since: 0 };
const cpu = cpuState[CPU];

/**
 * This thread's CPU time so far, in ms (user and system), exact at the read (see above).
 * `process.threadCpuUsage` is Node 22.19's; on an older Node 22 the process's stands in.
 */
const cpuMsNow = (): number => {
  const whole = process.cpuUsage();
  const used = process.threadCpuUsage?.() ?? whole;
  return (used.user + used.system) / 1000;
};

/** The thread's CPU from now on goes to `owner`: the clock is read only if that is a change. */
const switchTo = (owner: CpuTally | undefined) => {
  if (owner === cpu.current) return;
  const now = cpuMsNow();
  if (cpu.current) cpu.current.ms += now - cpu.since;
  cpu.current = owner;
  cpu.since = now;
};

const before = () => {
  const owner = cpu.tallies.getStore();
  cpu.owners.push(owner);
  switchTo(owner);
};
/**
 * `CURBSIDE_METER_CPU=exact`: the event loop's own work between two callbacks goes to no
 * owner, as before h54n, at the cost of a clock read at the end of every invocation's
 * callback (about 1,000 a car-line change): the benchmark's check of what the default
 * charges for the event loop (`test/bench/meter-cost.ts`).
 */
const EXACT_ENDS = process.env.CURBSIDE_METER_CPU === 'exact';

/** Back in the outer callback: its owner's again. At the event loop: nothing read (see above). */
const after = () => {
  cpu.owners.pop();
  if (cpu.owners.length > 0) switchTo(cpu.owners[cpu.owners.length - 1]);
  else if (EXACT_ENDS) switchTo(undefined);
};

/** Runs `fn` in a context of its own CPU tally, its synchronous part charged to it. */
export const withCpu = <T>(fn: () => T): T => {
  if (!cpu.hook) {
    cpu.hook = createHook({ before, after }).enable();
    // An uncaught error skips the `after` of its callback: its open callbacks are dropped.
    cpu.drop = () => {
      cpu.owners.length = 0;
    };
    process.on('uncaughtExceptionMonitor', cpu.drop);
  }
  const outer = cpu.tallies.getStore();
  const tally: CpuTally = { ms: 0 };
  return cpu.tallies.run(tally, () => {
    cpu.owners.push(tally);
    switchTo(tally);
    try {
      return fn();
    } finally {
      cpu.owners.pop();
      switchTo(outer);
    }
  });
};

/** The running invocation's own CPU so far, in ms (its running stretch included); 0 outside one. */
export const cpuMsOfRunning = (): number => {
  const tally = cpu.tallies.getStore();
  if (!tally) return 0;
  return tally.ms + (cpu.current === tally ? cpuMsNow() - cpu.since : 0);
};

/** The hook off and its state cleared (the meter is off). */
export const stopCpu = (): void => {
  if (!cpu.hook) return;
  cpu.hook.disable();
  if (cpu.drop) process.off('uncaughtExceptionMonitor', cpu.drop);
  cpu.owners.length = 0;
  cpu.current = undefined;
  cpu.hook = undefined;
};
