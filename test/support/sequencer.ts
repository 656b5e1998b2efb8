import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that start first, whatever their project: long, and mostly waiting on their own processes. */
const FIRST = ['test/bench/smoke.test.ts'];

/**
 * Vitest's order (by project, then failed and longest first), with the benchmark's smoke run
 * moved to the front: it takes about a minute, most of it a rush in a server process of its
 * own, and started last (the integration project runs after the browser one) it ended the
 * run alone for 15–20 s.
 */
export class SmokeFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isFirst = (file: TestSpecification) => FIRST.some((path) => file.moduleId.endsWith(path));
    return [...sorted.filter(isFirst), ...sorted.filter((file) => !isFirst(file))];
  }
}
