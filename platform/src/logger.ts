import { pino, type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/** Structured JSON logs on stdout: one line per event, ready for any collector. */
export function createLogger(name: string, level: LogLevel): Logger {
  return pino({
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'password', '*.password'], remove: true },
  });
}
