/** What the micro-benchmarks of `test/bench` share as scripts: their numeric options, their run. */
import { parseArgs } from 'node:util';

/** A micro-benchmark's numeric command-line options (`--name value`), each with its default. */
export const numericArgs = <K extends string>(defaults: Record<K, number>): Record<K, number> => {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.keys(defaults).map((name) => [name, { type: 'string' as const }])),
  });
  return Object.fromEntries(
    Object.entries<number>(defaults).map(([name, fallback]) => {
      const given = values[name];
      return [name, typeof given === 'string' ? Number(given) : fallback];
    }),
  ) as Record<K, number>;
};

/** Runs a script's `main`, exiting 0 when it is done and 1 (with the error) when it fails. */
export const runScript = (main: () => Promise<void>): void => {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
