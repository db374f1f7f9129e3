import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// services.mjs is plain ESM on execa, which jest's CommonJS runtime cannot
// load: the case runs in a Node process of its own.
const servicesModule = join(__dirname, '..', 'lib', 'services.mjs');

describe("the local stack's MailDev, stopped and started again", () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mail-catcher-control-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses SMTP connections once stopped, and takes mail again once started, on the same port', async () => {
    // The jest setup's MongoDB and Redis are in the environment: only MailDev starts.
    const source = `
      import { connect } from 'node:net';
      import { startServices } from ${JSON.stringify(servicesModule)};
      const services = await startServices({ dataDir: ${JSON.stringify(dataDir)}, mailCatcher: true });
      const { port } = new URL(services.smtpUrl);
      const answers = () => new Promise((resolve) => {
        const socket = connect(Number(port), '127.0.0.1');
        socket.once('data', (greeting) => { socket.destroy(); resolve(String(greeting).slice(0, 3)); });
        socket.once('error', (error) => resolve(error.code));
      });
      const seen = { before: await answers() };
      await services.mailCatcher.stop();
      seen.stopped = await answers();
      await services.mailCatcher.start();
      seen.started = await answers();
      seen.smtpUrl = services.smtpUrl;
      await services.stop();
      seen.afterStop = await answers();
      console.log(JSON.stringify(seen));
      process.exit(0);`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', source],
      { timeout: 60_000, cwd: join(__dirname, '..', '..') },
    );
    const seen = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, string>;
    expect(seen).toMatchObject({
      before: '220',
      stopped: 'ECONNREFUSED',
      started: '220',
      afterStop: 'ECONNREFUSED',
    });
  });
});
