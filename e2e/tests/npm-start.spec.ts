import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { sendEnquiry, uniqueEnquiry } from '../support/contact-form';
import { waitForMail } from '../support/mail-catcher-client';

const repoRoot = join(__dirname, '..', '..');

/** Output of `child` until `pattern` shows, or an error with that output if it exits first. */
function outputUntil(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += stripVTControlCharacters(chunk.toString());
      if (pattern.test(output)) resolve(output);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => {
      reject(
        new Error(`npm start exited (${String(code)}) before printing ${pattern}:\n${output}`),
      );
    });
  });
}

/** The value printed after `label` in the summary box. */
function printed(output: string, label: string): string {
  const value = new RegExp(`^\\| ${label} +(\\S+)`, 'm').exec(output)?.[1];
  if (!value) throw new Error(`npm start printed no "${label}" line:\n${output}`);
  return value;
}

/** Holds a free port of loopback, as another program would, until closed. */
async function occupyPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    release: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test.describe('npm start', () => {
  // It starts a whole second stack: its own FerretDB or mongod, Redis and MailDev.
  test.setTimeout(180_000);

  test('prints the URLs, and the web inbox shows the notification of an enquiry', async ({
    page,
    request,
  }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'agency-npm-start-'));
    // As on a fresh clone: no stores, SMTP or settings of the suite's own run.
    const suiteOwn = new Set(['MONGODB_URI', 'REDIS_URL', 'SMTP_URL', 'MAIL_TO', 'FORCE_COLOR']);
    const inherited = Object.entries(process.env).filter(([name]) => !suiteOwn.has(name));
    // The web port it prefers is taken, as by another program.
    const busy = await occupyPort();
    const env = {
      ...Object.fromEntries(inherited),
      NO_COLOR: '1',
      WEB_PORT: String(busy.port),
    };
    // The e2e suite runs on the build already made; the build step is npm run build's to test.
    const start = spawn(
      process.execPath,
      ['scripts/start.mjs', '--skip-build', '--data-dir', dataDir],
      { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const output = await outputUntil(start, /Press Ctrl-C to stop\./);
      const webUrl = printed(output, 'Web');
      const inboxUrl = printed(output, 'Mail inbox');
      expect(printed(output, 'API')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(printed(output, 'Health')).toMatch(/\/api\/health$/);
      expect(printed(output, ' {2}username')).not.toBe('');
      expect(printed(output, ' {2}password')).not.toBe('');
      expect((await request.get(printed(output, 'Health'))).status()).toBe(200);

      // The wished-for web port was busy: every page address names the one taken.
      expect(new URL(webUrl).port).not.toBe(String(busy.port));
      const home = await (await request.get(webUrl)).text();
      expect(home).toContain(`<link rel="canonical" href="${webUrl}/"`);
      expect(home).toContain(`hreflang="fr" href="${webUrl}/fr/"`);
      const services = await (await request.get(`${webUrl}/ar/services`)).text();
      expect(services).toContain(`<link rel="canonical" href="${webUrl}/ar/services"`);
      const sitemap = await (await request.get(`${webUrl}/sitemap.xml`)).text();
      expect(sitemap).toContain(`<loc>${webUrl}/services</loc>`);
      expect((await request.get(`${webUrl}/robots.txt`)).ok()).toBe(true);
      for (const text of [home, services, sitemap]) {
        expect(text).not.toMatch(/localhost:5173|127\.0\.0\.1:5173/);
      }

      const enquiry = uniqueEnquiry();
      await sendEnquiry(page, new URL('/contact', webUrl).toString(), enquiry);
      const mail = await waitForMail(
        request,
        { containing: enquiry.message },
        { catcherUrl: inboxUrl, timeout: 30_000 },
      );

      await page.goto(inboxUrl);
      await expect(page.getByText(mail.subject).first()).toBeVisible();
    } finally {
      start.kill('SIGINT');
      const [code] = await once(start, 'exit');
      await busy.release();
      rmSync(dataDir, { recursive: true, force: true });
      expect(code).toBe(0);
    }
  });
});
