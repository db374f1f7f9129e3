// @ts-check
/**
 * `npm start`: builds the app, starts MongoDB-wire server, Redis and a mail
 * catcher (data in <repo>/.data), then the API, worker and web; prints the
 * URLs and stops everything on Ctrl-C.
 *
 * Options: --skip-build  run the existing build (dist folders) as is.
 */
import { join } from 'node:path';
import { bootstrap, REPO_ROOT } from './bootstrap.mjs';

bootstrap();

const { boxed, paint } = await import('./lib/console-style.mjs');
const { runCommand } = await import('./lib/managed-process.mjs');
const { pickPort } = await import('./lib/ports.mjs');
const { redactCredentials, startServices } = await import('./lib/services.mjs');
const { reportFatalError } = await import('./lib/setup-error.mjs');
const { startStack } = await import('./lib/stack.mjs');
const { ensureSystemDependencies } = await import('./lib/system-deps.mjs');

const DATA_DIR = join(REPO_ROOT, '.data');
const PREFERRED_PORTS = { web: 5173, api: 4000, smtp: 1025, mailCatcherHttp: 8025 };

/** @type {(() => Promise<void>)[]} what to stop, in the order it was started */
const running = [];
let shuttingDown = false;

/** @param {number} exitCode */
async function shutdown(exitCode) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log('\nStopping...');
  for (const stop of running.splice(0).reverse()) {
    try {
      await stop();
    } catch (error) {
      reportFatalError(error);
    }
  }
  console.log('Stopped.');
  process.exit(exitCode);
}

function handleStopSignals() {
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      // A second Ctrl-C while stopping: give up waiting (children are killed on exit).
      if (shuttingDown) process.exit(130);
      void shutdown(0);
    });
  }
}

/** Demo mode unless production (never there) or DEMO_MODE=false. */
function wantsDemoMode() {
  const production = (process.env.NODE_ENV ?? 'development') === 'production';
  if (production && process.env.DEMO_MODE === 'true') {
    console.warn('DEMO_MODE=true is ignored: demo mode never runs with NODE_ENV=production.');
  }
  return !production && process.env.DEMO_MODE !== 'false';
}

/**
 * @param {{ webUrl: string, apiUrl: string, healthUrl: string, mongodbUri: string, redisUrl: string,
 *   smtpUrl?: string, mailCatcherUrl?: string, nodeEnv: string,
 *   demoAdmin?: { username: string, email: string, password: string } }} info
 */
function printSummary(info) {
  const lines = [
    `Agency platform is running (${info.nodeEnv}${info.demoAdmin ? ', demo mode' : ''})`,
    '',
    `Web            ${info.webUrl}`,
    `API            ${info.apiUrl}`,
    `Health         ${info.healthUrl}`,
    info.mailCatcherUrl
      ? `Mail catcher   ${info.mailCatcherUrl}  (SMTP ${info.smtpUrl})`
      : `SMTP           ${info.smtpUrl ? redactCredentials(info.smtpUrl) : '(none)'}`,
    `MongoDB        ${redactCredentials(info.mongodbUri)}`,
    `Redis          ${redactCredentials(info.redisUrl)}`,
  ];
  if (info.demoAdmin) {
    lines.push(
      '',
      `Demo admin     sign in at ${info.webUrl}/admin/login`,
      `  username     ${info.demoAdmin.username}`,
      `  email        ${info.demoAdmin.email}`,
      `  password     ${info.demoAdmin.password}`,
    );
  }
  lines.push('', `Data folder    ${DATA_DIR}`, 'Press Ctrl-C to stop.');
  console.log(`\n${paint('green', boxed(lines))}\n`);
}

async function main() {
  handleStopSignals();
  const nodeEnv = process.env.NODE_ENV ?? 'development';
  ensureSystemDependencies({
    redis: !process.env.REDIS_URL,
    mongo: !process.env.MONGODB_URI,
    chromium: false,
    dockerCompose: false,
  });

  if (!process.argv.includes('--skip-build')) {
    console.log('Building (npm run build)...');
    const buildExit = await runCommand('npm', ['run', 'build'], { cwd: REPO_ROOT });
    if (shuttingDown) return;
    if (buildExit !== 0) {
      console.error(`npm run build failed (exit ${buildExit}); nothing was started.`);
      process.exit(1);
    }
  }

  const services = await startServices({
    dataDir: DATA_DIR,
    smtp: 'catcher',
    ports: {
      smtp: await pickPort(PREFERRED_PORTS.smtp),
      mailCatcherHttp: await pickPort(PREFERRED_PORTS.mailCatcherHttp),
    },
  });
  running.push(services.stop);
  if (shuttingDown) return;

  const stack = await startStack({
    rootDir: REPO_ROOT,
    mongodbUri: services.mongodbUri,
    redisUrl: services.redisUrl,
    smtpUrl: services.smtpUrl,
    apiPort: await pickPort(Number(process.env.API_PORT) || PREFERRED_PORTS.api),
    webPort: await pickPort(Number(process.env.WEB_PORT) || PREFERRED_PORTS.web),
    nodeEnv,
    demoMode: wantsDemoMode(),
  });
  running.push(stack.stop);
  if (shuttingDown) return;

  printSummary({ ...services, ...stack, nodeEnv, demoAdmin: stack.demoAdmin });

  const crash = await stack.unexpectedExit;
  console.error(`${crash.name} stopped unexpectedly (${crash.reason}); stopping everything.`);
  await shutdown(1);
}

main().catch(async (/** @type {unknown} */ error) => {
  reportFatalError(error);
  if (!shuttingDown) await shutdown(1);
});
