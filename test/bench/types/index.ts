/**
 * The benchmark's data: what each phase measures and answers (plain data, no
 * connection or process in it), the report `assembleReport` builds from
 * them, and the budgets' verdicts. These modules import none of the bench's
 * own modules, so every one of them can import from them without a circle.
 * One file per part: the options and the school, the machine's figures, the cost, the
 * buses, the phases' results, the report.
 */

export * from './buses';
export * from './cost';
export * from './machine';
export * from './options';
export * from './phases';
export * from './report';
