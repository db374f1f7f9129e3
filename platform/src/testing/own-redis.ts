import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A Redis server of one test's own, so the test can stop, restart, freeze
 * (SIGSTOP, like a hung process or a network partition: the socket stays
 * open and nothing answers) and thaw it without disturbing other test files.
 * It keeps nothing on disk: a restart loses every key, as a Redis without
 * persistence would.
 */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/** A loopback port nobody listens on (at the time of asking). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

const READY_LINE = /Ready to accept connections/;

async function launch(port: number): Promise<ChildProcess> {
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (READY_LINE.test(output)) {
        child.stdout?.off('data', onData);
        // Keep draining so a chatty server never blocks on a full pipe.
        child.stdout?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.resume();
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return child;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  // A frozen process cannot act on SIGTERM until it runs again.
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  await exited;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child) await terminate(child);
      child = undefined;
    },
    async start() {
      child ??= await launch(port);
    },
    freeze() {
      child?.kill('SIGSTOP');
    },
    thaw() {
      child?.kill('SIGCONT');
    },
    async close() {
      if (child) await terminate(child);
      child = undefined;
    },
  };
}
