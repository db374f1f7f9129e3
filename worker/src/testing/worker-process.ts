import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildWorkspaces } from '@agency/platform/testing/build-workspaces';
import { TEST_SECRETS } from '@agency/platform/testing/test-secrets';

const ROOT = join(__dirname, '..', '..', '..');

/** Builds the worker as it runs in production, so a test can run it as a real process and kill it. */
export function buildWorker(): void {
  buildWorkspaces('contracts', 'backend', 'worker');
}

export interface WorkerProcess {
  child: ChildProcess;
  /** Log lines (pino JSON) the worker wrote so far. */
  lines: Record<string, unknown>[];
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts `node worker/dist/index.js` with these variables and waits for
 * "worker started". It signs mail links with the test file's secret, as the
 * API and the in-process workers of the same file do.
 */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'worker', 'dist', 'index.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'debug',
      MAIL_LINK_SECRET: TEST_SECRETS.MAIL_LINK_SECRET,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = once(child, 'exit').then(
    ([code, signal]) => (signal as NodeJS.Signals | null) ?? (code as number | null),
  );
  const started = new Promise<void>((resolve, reject) => {
    if (!child.stdout) throw new Error('the worker has no stdout');
    const reader = createInterface({ input: child.stdout });
    reader.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        lines.push(entry);
        if (entry.msg === 'worker started') resolve();
      } catch {
        // Not a log line.
      }
    });
    void exited.then((how) =>
      reject(new Error(`worker exited (${String(how)}) before starting: ${stderr.join('')}`)),
    );
  });
  await started;
  return { child, lines, exited };
}
