/** Console output of the laptop runtime; quiet when `LOG_LEVEL` is `silent` (as in tests). */
const silent = () => process.env.LOG_LEVEL === 'silent';

export const logInfo = (line: string) => {
  if (!silent()) console.log(line);
};

export const logError = (line: string, error?: unknown) => {
  if (silent()) return;
  const detail =
    error instanceof Error ? (error.stack ?? error.message) : error === undefined ? '' : String(error);
  console.error(detail ? `${line}: ${detail}` : line);
};
