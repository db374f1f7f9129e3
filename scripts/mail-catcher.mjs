// @ts-check
/**
 * Runs the mail catcher alone: an SMTP sink plus a page listing what it got.
 *   node scripts/mail-catcher.mjs [--host 127.0.0.1] [--smtp-port 1025] [--http-port 8025]
 * Ports default to 1025 / 8025 when free, else any free port.
 */
import { parseArgs } from 'node:util';
import { bootstrap } from './bootstrap.mjs';

bootstrap();

const { startMailCatcher } = await import('./lib/mail-catcher.mjs');
const { LOOPBACK, pickPort } = await import('./lib/ports.mjs');

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: LOOPBACK },
    'smtp-port': { type: 'string' },
    'http-port': { type: 'string' },
  },
});
const host = values.host ?? LOOPBACK;
const catcher = await startMailCatcher({
  host,
  smtpPort: await pickPort(Number(values['smtp-port']) || 1025, host),
  httpPort: await pickPort(Number(values['http-port']) || 8025, host),
});
console.log(`Mail catcher web page  ${catcher.httpUrl}`);
console.log(`Mail catcher JSON API  ${catcher.httpUrl}/api/messages`);
console.log(`SMTP (SMTP_URL)        ${catcher.smtpUrl}`);
console.log('Press Ctrl-C to stop.');

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    void catcher.stop().then(() => process.exit(0));
  });
}
