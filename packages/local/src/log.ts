/** Console output of the laptop runtime; quiet when `LOG_LEVEL` is `silent` (as in tests). */
const silent = () => process.env.LOG_LEVEL === 'silent';

/** Logs a line (made only when logging is on: pass a function to defer the work). */
export const logInfo = (line: string | (() => string)) => {
  if (!silent()) console.log(typeof line === 'function' ? line() : line);
};

export const logError = (line: string, error?: unknown) => {
  if (silent()) return;
  const detail =
    error instanceof Error ? (error.stack ?? error.message) : error === undefined ? '' : String(error);
  console.error(detail ? `${line}: ${detail}` : line);
};
