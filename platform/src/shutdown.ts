import { ConfigError } from './config';
import type { Logger } from './logger';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Runs `stop` once on SIGTERM or SIGINT and exits; if stopping hangs past the
 * grace period the process exits anyway so an orchestrator is never stuck.
 */
export function runUntilSignalled(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * The last word of a process that could not start: one line, the bad setting
 * named when configuration is at fault, and a non-zero exit.
 */
export function exitOnStartupFailure(processName: string) {
  return (error: unknown): never => {
    if (error instanceof ConfigError) {
      console.error(error.message);
    } else {
      const reason = error instanceof Error ? error.message : String(error);
      console.error(`${processName} failed to start: ${reason}`);
    }
    process.exit(1);
  };
}
