// @ts-check
/**
 * `npm start`: installs what is missing, builds, then runs the whole product
 * on this machine (data in <repo>/.data), prints its URLs and, in demo mode,
 * the demo admin; Ctrl-C stops everything in reverse order.
 *
 *   --skip-build        run the existing build as is
 *   --data-dir <path>   keep the servers' data there instead of <repo>/.data
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { installNpmPackages } from './lib/bootstrap.mjs';
import { boxed, paint, redactCredentials, reportFatalError, SetupError } from './lib/console.mjs';
import { ensureSystemPrograms } from './lib/system-deps.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const { values: options } = parseArgs({
  options: { 'skip-build': { type: 'boolean' }, 'data-dir': { type: 'string' } },
});
const dataDir = options['data-dir'] ?? join(rootDir, '.data');
const PREFERRED_PORTS = { web: 5173, api: 4000, smtp: 1025, mailCatcher: 8025 };

/** @type {(() => Promise<void>) | undefined} */
let stopStack;
let stopping = false;

/** @param {number} exitCode */
async function shutdown(exitCode) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping...');
  await stopStack?.().catch(reportFatalError);
  console.log('Stopped.');
  process.exit(exitCode);
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  // A second Ctrl-C while stopping gives up waiting (children die on exit).
  process.on(signal, () => (stopping ? process.exit(130) : void shutdown(0)));
}

/** @param {Awaited<ReturnType<typeof import('./lib/stack.mjs').startStack>>} stack */
function printSummary(stack) {
  const lines = [
    `Agency platform is running (${process.env.NODE_ENV ?? 'development'}${stack.demoAdmin ? ', demo mode' : ''})`,
    '',
    `Web            ${stack.webUrl}`,
    `API            ${stack.apiUrl}`,
    `Health         ${stack.healthUrl}`,
    stack.mailCatcherUrl
      ? `Mail inbox     ${stack.mailCatcherUrl}  (MailDev; SMTP ${stack.smtpUrl})`
      : `SMTP           ${redactCredentials(stack.smtpUrl ?? '(none)')}`,
    `MongoDB        ${redactCredentials(stack.mongodbUri)}`,
    `Redis          ${redactCredentials(stack.redisUrl)}`,
  ];
  if (stack.demoAdmin) {
    const { username, email, password } = stack.demoAdmin;
    lines.push('', `Demo admin     sign in at ${stack.webUrl}/admin/login`);
    lines.push(
      `  username     ${username}`,
      `  email        ${email}`,
      `  password     ${password}`,
    );
  }
  lines.push('', `Data folder    ${dataDir}`, 'Press Ctrl-C to stop.');
  console.log(`\n${paint('green', boxed(lines))}\n`);
}

async function main() {
  const env = process.env;
  await Promise.all([
    installNpmPackages(rootDir),
    ensureSystemPrograms({ redis: !env.REDIS_URL, mongo: !env.MONGODB_URI }),
  ]);
  const { execa } = await import('execa');
  const { startStack } = await import('./lib/stack.mjs');
  const { wantsDemoMode } = await import('./lib/app-env.mjs');
  if (!options['skip-build']) {
    console.log('Building (npm run build)...');
    const { exitCode } = await execa('npm', ['run', 'build'], {
      cwd: rootDir,
      stdio: 'inherit',
      reject: false,
    });
    if (stopping) return;
    if (exitCode !== 0)
      throw new SetupError(`npm run build failed (exit ${exitCode}); nothing was started.`);
  }
  if (env.NODE_ENV === 'production' && env.DEMO_MODE === 'true') {
    console.warn('DEMO_MODE=true is ignored: demo mode never runs with NODE_ENV=production.');
  }
  const preferredPorts = {
    ...PREFERRED_PORTS,
    api: Number(env.API_PORT) || PREFERRED_PORTS.api,
    web: Number(env.WEB_PORT) || PREFERRED_PORTS.web,
  };
  const stack = await startStack({
    rootDir,
    dataDir,
    env,
    demoMode: wantsDemoMode(env),
    preferredPorts,
  });
  stopStack = stack.stop;
  if (stopping) return;
  printSummary(stack);
  const crash = await stack.unexpectedExit;
  if (stopping) return;
  console.error(`${crash}: stopping everything.`);
  await shutdown(1);
}

main().catch(async (/** @type {unknown} */ error) => {
  reportFatalError(error);
  await shutdown(1);
});
