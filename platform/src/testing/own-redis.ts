import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A Redis server of one test's own, so the test can stop, restart, freeze
 * (SIGSTOP, like a hung process or a network partition: the socket stays
 * open and nothing answers) and thaw it without disturbing other test files.
 * It keeps nothing on disk: a restart loses every key, as a Redis without
 * persistence would.
 */
export interface OwnRedis {
  url: string;
  port: number;
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

const READY_LINE = /Ready to accept connections|Sentinel ID is/;

async function launch(args: string[]): Promise<ChildProcess> {
  const binary = process.env.REDIS_SERVER_BIN ?? 'redis-server';
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** `replicaOf`: the port of a primary on loopback that this server replicates. */
export async function startOwnRedis(options: { replicaOf?: number } = {}): Promise<OwnRedis> {
  const port = await freePort();
  // A replica writes what it receives from its primary to disk: not in the checkout.
  const dir = mkdtempSync(join(tmpdir(), 'agency-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  args.push('--dir', dir);
  if (options.replicaOf) args.push('--replicaof', '127.0.0.1', String(options.replicaOf));
  let child: ChildProcess | undefined = await launch(args);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child) await terminate(child);
      child = undefined;
    },
    async start() {
      child ??= await launch(args);
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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnSentinel {
  port: number;
  /** SIGSTOP: it takes connections and answers nothing, like a hung Sentinel. */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A Redis Sentinel of the test's own, watching the primary at `primaryPort`
 * under `name`. Alone it is its own quorum, so `SENTINEL FAILOVER` promotes
 * a replica at once; it notices a dead primary after a second.
 */
export async function startOwnSentinel(primaryPort: number, name: string): Promise<OwnSentinel> {
  const port = await freePort();
  // A Sentinel rewrites its configuration file: it needs one of its own.
  const dir = mkdtempSync(join(tmpdir(), 'agency-sentinel-'));
  const file = join(dir, 'sentinel.conf');
  writeFileSync(
    file,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 10000`,
      '',
    ].join('\n'),
  );
  const child = await launch([file, '--sentinel']);
  return {
    port,
    freeze() {
      child.kill('SIGSTOP');
    },
    thaw() {
      child.kill('SIGCONT');
    },
    async close() {
      await terminate(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
