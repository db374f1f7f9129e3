import {
  startManagedProcess,
  waitUntilReady,
  type ManagedProcess,
} from '../lib/managed-process.mjs';
import { waitUntil } from '../lib/wait.mjs';

/** A Node child that runs `source`. */
function startNode(name: string, source: string): ManagedProcess {
  return startManagedProcess({
    name,
    command: process.execPath,
    args: ['-e', source],
    echo: false,
  });
}

describe('managed processes', () => {
  it('keeps the last output lines', async () => {
    const child = startNode('printer', "console.log('one'); console.error('two');");
    await child.exited;
    expect(child.recentOutput()).toEqual(expect.arrayContaining(['one', 'two']));
    expect(child.isRunning()).toBe(false);
  });

  it('fails the readiness wait with the output of a process that died', async () => {
    const child = startNode('crasher', "console.error('boom: bad config'); process.exit(3);");

    const ready = waitUntilReady(child, (signal) =>
      waitUntil(async () => false, 'never ready', { signal, timeoutMs: 10_000 }),
    );

    await expect(ready).rejects.toThrow(/crasher exited with code 3[\s\S]*boom: bad config/);
  });

  it('stops a process that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const child = startNode(
      'stubborn',
      "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);",
    );
    await waitUntil(async () => child.recentOutput().includes('ready'), 'no ready line');

    const info = await child.stop(200);

    expect(info.signal).toBe('SIGKILL');
  });

  it('stops a well-behaved process with SIGTERM', async () => {
    const child = startNode('polite', "console.log('ready'); setInterval(() => {}, 1000);");
    await waitUntil(async () => child.recentOutput().includes('ready'), 'no ready line');

    const info = await child.stop();

    expect(info.signal).toBe('SIGTERM');
  });
});
