import { config } from './config';

/** One JSON line per record, as CloudWatch Logs reads best. */
export const log = (level: 'info' | 'warn' | 'error', message: string, fields: object = {}) => {
  if (config.logLevel === 'silent') return;
  if (config.logLevel === 'error' && level !== 'error') return;
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
};
