import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

// processes.mjs is plain ESM on execa (ESM only), which jest's CommonJS
// runtime cannot load: each case runs in a Node process of its own.
const processesModule = join(__dirname, '..', 'lib', 'processes.mjs');

async function runWithProcesses(body: string): Promise<{ stdout: string; stderr: string }> {
  const source = `import { startService, waitUntilReady, stopAll } from ${JSON.stringify(processesModule)};\n${body}`;
  return promisify(execFile)(process.execPath, ['--input-type=module', '-e', source], {
    timeout: 20_000,
  });
}

describe('services of the local stack', () => {
  it('fails the readiness wait at once with the output of a service that died', async () => {
    const { stdout } = await runWithProcesses(`
      const crasher = startService({ name: 'crasher', command: process.execPath,
        args: ['-e', "console.error('boom: bad config'); process.exit(3)"], echo: false });
      const startedAt = Date.now();
      try {
        await waitUntilReady(['tcp:127.0.0.1:9'], [crasher], 15000);
        console.log('READY');
      } catch (error) {
        console.log(JSON.stringify({ message: error.message, ms: Date.now() - startedAt }));
      }
      process.exit(0); // wait-on cannot be cancelled: it would poll on until its timeout`);
    const { message, ms } = JSON.parse(stdout) as { message: string; ms: number };
    expect(message).toMatch(
      /^crasher exited with code 3\nLast output of crasher:\n {2}boom: bad config/,
    );
    expect(ms).toBeLessThan(10_000);
  });

  it('waits for a service to listen, prefixes its output, tells its pid and stops it', async () => {
    const { stdout } = await runWithProcesses(`
      const { default: getPort } = await import('get-port');
      const port = await getPort({ host: '127.0.0.1' });
      const server = startService({ name: 'server', command: process.execPath, args: ['-e',
        "require('node:http').createServer((q, s) => s.end('ok'))" +
        ".listen(" + port + ", '127.0.0.1', () => console.log('listening as ' + process.pid))"] });
      await waitUntilReady(['http-get://127.0.0.1:' + port + '/'], [server]);
      console.log('pid: ' + server.pid);
      await stopAll([server]);
      console.log('stopped: ' + (await server.exited));`);
    const ownPid = /\[server\] listening as (\d+)/.exec(stdout)?.[1];
    expect(ownPid).toBeDefined();
    expect(stdout).toContain(`pid: ${ownPid}`);
    expect(stdout).toContain('stopped: was killed by SIGTERM');
  });
});
