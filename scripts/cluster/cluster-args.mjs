// @ts-check
/** The command line of `npm run test:cluster`. */
import { parseArgs } from 'node:util';
import { SetupError } from '../lib/console.mjs';

export const ALL_SCENARIOS = ['1', '2', '3', '4'];

/**
 * `--scenarios 1,3` (default all four), `--recipients` (each campaign's,
 * default 20,000), `--time-limit-minutes` (the whole run's, default 20),
 * `--verbose` (every process's output).
 * @param {string[]} argv
 */
export function parseClusterArgs(argv) {
  const { values } = parseArgs({
    args: argv.filter((arg) => arg !== '--'),
    options: {
      scenarios: { type: 'string', default: ALL_SCENARIOS.join(',') },
      recipients: { type: 'string', default: '20000' },
      'time-limit-minutes': { type: 'string', default: '20' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const scenarios = values.scenarios.split(',').map((entry) => entry.trim());
  const unknown = scenarios.filter((entry) => !ALL_SCENARIOS.includes(entry));
  if (unknown.length > 0 || scenarios.length === 0) {
    throw new SetupError(
      `--scenarios takes some of ${ALL_SCENARIOS.join(',')} (got ${values.scenarios})`,
    );
  }
  const recipients = Number(values.recipients);
  const limitMinutes = Number(values['time-limit-minutes']);
  if (!Number.isInteger(recipients) || recipients < 100) {
    throw new SetupError(
      `--recipients takes a whole number, 100 or more (got ${values.recipients})`,
    );
  }
  if (!(limitMinutes > 0)) {
    throw new SetupError(
      `--time-limit-minutes takes a number of minutes (got ${values['time-limit-minutes']})`,
    );
  }
  return {
    scenarios: [...new Set(scenarios)].sort().map(Number),
    recipients,
    timeLimitMs: limitMinutes * 60_000,
    verbose: values.verbose,
  };
}
