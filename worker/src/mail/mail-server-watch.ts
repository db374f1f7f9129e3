import {
  markMailServerReachable,
  markMailServerUnreachable,
  readMailServerState,
  type Logger,
  type Redis,
} from '@agency/platform';
import { connectionFailureCode } from './smtp-failure';

/**
 * What the worker tells the dashboard about the SMTP server: an outage from
 * the first send that could not connect, its end at the first mail accepted.
 */
export interface MailServerWatch {
  /** A send could not reach the server: the dashboard says so within a poll. */
  unreachable(error: unknown): Promise<void>;
  /** A mail was accepted: any outage noted is over. */
  reachable(): Promise<void>;
  /** Whether an outage is noted, so that sends wait for the probe rather than retry into it. */
  isUnreachable(): Promise<boolean>;
}

/** Every accepted mail would otherwise write Redis; once a second is soon enough for a banner. */
const REACHABLE_WRITE_INTERVAL_MS = 1000;

export function createMailServerWatch(
  redis: Redis,
  queuePrefix: string,
  logger: Logger,
): MailServerWatch {
  let lastReachableWrite = 0;
  return {
    async unreachable(error) {
      const code = connectionFailureCode(error);
      logger.warn(
        { err: code },
        'the mail server cannot be reached; sending resumes once it answers',
      );
      await markMailServerUnreachable(redis, queuePrefix, code);
      // The next success must clear it at once, whatever this process wrote a moment ago.
      lastReachableWrite = 0;
    },
    async reachable() {
      const now = Date.now();
      if (now - lastReachableWrite < REACHABLE_WRITE_INTERVAL_MS) return;
      lastReachableWrite = now;
      await markMailServerReachable(redis, queuePrefix);
    },
    async isUnreachable() {
      return (await readMailServerState(redis, queuePrefix)).status === 'unreachable';
    },
  };
}
