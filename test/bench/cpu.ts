/**
 * Where the machine's CPU went during the rush: the server process, DynamoDB
 * Local (Java), this load generator, and everything else on the machine
 * (other users' work), from /proc on Linux. Elsewhere only the Node
 * processes are known.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { CpuFigures, CpuSample } from './types';

const TICKS_PER_SECOND = 100;

/** CPU seconds of a process from /proc/{pid}/stat (utime + stime), or undefined. */
export const procSeconds = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

/** Busy CPU seconds of the whole machine from /proc/stat, or undefined. */
const machineSeconds = (): number | undefined => {
  try {
    const [line] = readFileSync('/proc/stat', 'utf8').split('\n');
    const [, ...values] = (line ?? '').trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values.map(Number);
    return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
};

/** The Java child of this process (DynamoDB Local), if this process started it. */
export const javaChild = (): number | undefined => {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'java' && ppid === process.pid) return Number(entry);
    }
  } catch {
    // not Linux
  }
  return undefined;
};

export const cpuSampler = (serverCpu: () => Promise<{ user: number; system: number }>) => {
  const java = javaChild();
  const sample = async (): Promise<CpuSample> => {
    const server = await serverCpu();
    const own = process.cpuUsage();
    return {
      at: performance.now(),
      server: (server.user + server.system) / 1e6,
      generator: (own.user + own.system) / 1e6,
      dynamo: java === undefined ? undefined : procSeconds(java),
      machine: machineSeconds(),
    };
  };
  const figures = (from: CpuSample, to: CpuSample): CpuFigures => {
    const seconds = (to.at - from.at) / 1000;
    const of = (used: number) => ({ seconds: used, cores: used / seconds });
    const server = to.server - from.server;
    const generator = to.generator - from.generator;
    const dynamo = from.dynamo !== undefined && to.dynamo !== undefined ? to.dynamo - from.dynamo : undefined;
    const machine =
      from.machine !== undefined && to.machine !== undefined ? to.machine - from.machine : undefined;
    return {
      seconds,
      cores: cpus().length,
      server: of(server),
      dynamoLocal: dynamo === undefined ? null : of(dynamo),
      generator: of(generator),
      others: machine === undefined ? null : of(Math.max(0, machine - server - generator - (dynamo ?? 0))),
      machineBusy: machine === undefined ? null : of(machine),
    };
  };
  return { sample, figures };
};
