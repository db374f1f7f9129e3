import { createServer } from 'node:net';
import { Pool } from 'tarn';
import { isPermanentSmtpFailure, smtpFailureReason } from '../mail/smtp-failure';
import { freePort } from '@agency/platform/testing/own-redis';
import { startSmtpSink, type SmtpResponder, type SmtpSink } from '../testing/smtp-sink';
import type { RawCampaignMessage } from './campaign-mime';
import { createCampaignTransport, type CampaignTransport } from './campaign-transport';

function message(to: string, greeting = `Dear ${to},`): RawCampaignMessage {
  const raw = [
    'From: Agency <no-reply@agency.test>',
    `To: ${to}`,
    `Subject: Hello ${to}`,
    `Message-ID: <${to}@agency.test>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    greeting,
    // A line that starts with a dot must arrive whole (SMTP dot-stuffing).
    '.see you soon',
    '',
  ].join('\r\n');
  return { envelope: { from: 'no-reply@agency.test', to: [to] }, pieces: [raw] };
}

const addresses = (count: number) =>
  Array.from({ length: count }, (_, index) => `r${index}@example.tn`);

/**
 * The campaign sends' SMTP connections against a real SMTP server: what
 * arrives, over how many connections, and what a refusal, a dropped
 * connection, a sign-in or an unreachable server become.
 */
describe('the campaign transport', () => {
  let smtp: SmtpSink;
  let transport: CampaignTransport | undefined;

  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    await smtp.close();
  });

  /**
   * Sends `refused` (which the server turns down), then `next` over the same
   * transport: answers the refusal, and checks that only `next` arrived.
   */
  async function refusedThenNext(refused: string, next: string): Promise<unknown> {
    const sending = transport;
    if (!sending) throw new Error('create the transport first');
    const refusal = await sending.send(message(refused)).catch((error: unknown) => error);
    await sending.send(message(next));
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([[next]]);
    return refusal;
  }

  it('sends whole messages over at most the connections it is given, reusing them', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 2);
    const sending = transport;

    await Promise.all(addresses(12).map((to) => sending.send(message(to))));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo[0]).sort()).toEqual(
      addresses(12).sort(),
    );
    expect(smtp.received[0]?.mail.text).toContain('\n.see you soon');
    expect(smtp.connectionsOpened()).toBe(2);
    expect(new Set(smtp.received.map(({ sessionId }) => sessionId)).size).toBe(2);
  });

  it('sends each message whole over one connection, a short one after a long one included', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1);
    const greetings = ['Long '.repeat(2000), 'Short', 'Longer '.repeat(2500), 'ليلى'];

    for (const [index, greeting] of greetings.entries()) {
      await transport.send(message(`r${index}@example.tn`, greeting));
    }

    expect(smtp.received.map(({ mail }) => mail.text)).toEqual(
      greetings.map((greeting) => `${greeting}\n.see you soon\n`),
    );
    expect(smtp.connectionsOpened()).toBe(1);
  });

  /** The server refuses the message to gone@example.tn after its DATA, and takes the others. */
  const refuseMailToGone: SmtpResponder = (mail) =>
    mail.subject === 'Hello gone@example.tn'
      ? { code: 550, message: '5.1.1 Recipient address rejected' }
      : undefined;

  it('rejects a refused message with the reply, and sends the next one over the same connection', async () => {
    smtp = await startSmtpSink({
      responder: refuseMailToGone,
    });
    transport = createCampaignTransport(smtp.url, 1);

    const refusal = await refusedThenNext('gone@example.tn', 'here@example.tn');

    expect(isPermanentSmtpFailure(refusal)).toBe(true);
    expect(smtpFailureReason(refusal)).toContain('5.1.1 Recipient address rejected');
    expect(smtp.connectionsOpened()).toBe(1);
  });

  it('resets the session after a refused recipient, so the next message can start', async () => {
    smtp = await startSmtpSink({
      refuseRecipient: (address) =>
        address === 'gone@example.tn' ? { code: 550, message: '5.1.1 No such user' } : undefined,
    });
    transport = createCampaignTransport(smtp.url, 1);

    const refusal = await refusedThenNext('gone@example.tn', 'here@example.tn');

    expect(isPermanentSmtpFailure(refusal)).toBe(true);
    expect(smtp.connectionsOpened()).toBe(1);
  });

  it('replaces a connection whose session cannot be reset after a refused message', async () => {
    smtp = await startSmtpSink({
      refuseReset: true,
      responder: refuseMailToGone,
    });
    transport = createCampaignTransport(smtp.url, 1);

    const refusal = await refusedThenNext('gone@example.tn', 'here@example.tn');

    expect(isPermanentSmtpFailure(refusal)).toBe(true);
    expect(smtp.connectionsOpened()).toBe(2);
  });

  it('opens a new connection once the server has dropped an idle one', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1);
    await transport.send(message('first@example.tn'));

    smtp.dropConnections();
    // The client hears the close; the lease is replaced when next needed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await transport.send(message('second@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo[0])).toEqual([
      'first@example.tn',
      'second@example.tn',
    ]);
    expect(smtp.connectionsOpened()).toBe(2);
  });

  it('replaces a connection after its maximum of messages', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1, { maxMessages: 2 });

    for (const to of addresses(5)) await transport.send(message(to));

    expect(smtp.received).toHaveLength(5);
    expect(smtp.connectionsOpened()).toBe(3);
  });

  it('closes idle connections after the idle timeout', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1, { idleTimeoutMs: 50 });
    await transport.send(message('first@example.tn'));

    // tarn reaps once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await transport.send(message('second@example.tn'));

    expect(smtp.connectionsOpened()).toBe(2);
  });

  /** A sink that requires a sign-in, and a transport whose SMTP_URL carries `password`. */
  async function signingIn(password: string): Promise<CampaignTransport> {
    smtp = await startSmtpSink({ auth: { user: 'campaigns', pass: 's3cret' } });
    const url = new URL(smtp.url);
    url.username = 'campaigns';
    url.password = password;
    return createCampaignTransport(url.toString(), 1);
  }

  it('signs in with the credentials of SMTP_URL', async () => {
    transport = await signingIn('s3cret');

    await transport.send(message('signed@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['signed@example.tn']]);
  });

  it('rejects a refused sign-in as a failure worth retrying, not a refused recipient', async () => {
    transport = await signingIn('wrong');

    const error = await transport.send(message('nobody@example.tn')).catch((caught) => caught);

    expect(error).toMatchObject({ code: 'EAUTH' });
    expect(isPermanentSmtpFailure(error)).toBe(false);
    expect(smtp.received).toHaveLength(0);
  });

  it('sends without signing in when SMTP_URL names no user, though the server offers AUTH', async () => {
    smtp = await startSmtpSink({ auth: { user: 'campaigns', pass: 's3cret', optional: true } });
    transport = createCampaignTransport(smtp.url, 1);

    await transport.send(message('anonymous@example.tn'));

    expect(smtp.received).toHaveLength(1);
  });

  it('sends without signing in when the server offers no AUTH, though SMTP_URL names a user', async () => {
    smtp = await startSmtpSink();
    const url = new URL(smtp.url);
    url.username = 'campaigns';
    url.password = 's3cret';
    transport = createCampaignTransport(url.toString(), 1);

    await transport.send(message('plain@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['plain@example.tn']]);
  });

  it('takes the number of connections and the messages per connection from SMTP_URL', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(`${smtp.url}?maxConnections=1&maxMessages=3`, 4);
    const sending = transport;

    await Promise.all(addresses(6).map((to) => sending.send(message(to))));

    expect(smtp.received).toHaveLength(6);
    // One at a time, three per connection.
    expect(smtp.connectionsOpened()).toBe(2);
  });

  it('retires a connection the server hangs up on after refusing a message', async () => {
    smtp = await startSmtpSink({
      responder: (mail) => {
        if (mail.subject !== 'Hello busy@example.tn') return undefined;
        setImmediate(() => smtp.dropConnections());
        return { code: 421, message: '4.3.2 Service shutting down' };
      },
    });
    transport = createCampaignTransport(smtp.url, 1);

    const refusal = await refusedThenNext('busy@example.tn', 'next@example.tn');

    expect(isPermanentSmtpFailure(refusal)).toBe(false);
    expect(smtp.connectionsOpened()).toBe(2);
  });

  it('rejects, worth retrying, when the server hangs up before its greeting', async () => {
    smtp = await startSmtpSink();
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const address = hangUp.address();
    if (typeof address !== 'object' || address === null) throw new Error('no port');
    transport = createCampaignTransport(`smtp://127.0.0.1:${address.port}`, 1);

    const error = await transport.send(message('later@example.tn')).catch((caught) => caught);
    await new Promise<void>((resolve) => hangUp.close(() => resolve()));

    expect(smtpFailureReason(error)).toBe('Connection closed unexpectedly');
    expect(isPermanentSmtpFailure(error)).toBe(false);
  });

  it('rejects with a connection error, worth retrying, while the server is unreachable', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(`smtp://127.0.0.1:${await freePort()}`, 1);

    const error = await transport.send(message('later@example.tn')).catch((caught) => caught);

    expect(smtpFailureReason(error)).toMatch(/ECONNREFUSED/);
    expect(isPermanentSmtpFailure(error)).toBe(false);
  });

  it('gives the slot a message went over to the next message at once, without the pool', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1);
    const sending = transport;
    const acquire = jest.spyOn(Pool.prototype, 'acquire');
    const acquired = async () => {
      try {
        for (const to of addresses(5)) await sending.send(message(to));
        return acquire.mock.calls.length;
      } finally {
        // Restoring forgets the calls: they are counted first.
        acquire.mockRestore();
      }
    };

    expect(await acquired()).toBe(1);
    expect(smtp.received).toHaveLength(5);
  });

  it('hands a slot given back to a message waiting in the pool at once', async () => {
    smtp = await startSmtpSink();
    // One connection, two slots: four of the six messages wait in the pool.
    transport = createCampaignTransport(smtp.url, 1);
    const sending = transport;
    const started = Date.now();

    await Promise.all(addresses(6).map((to) => sending.send(message(to))));

    expect(smtp.received).toHaveLength(6);
    // A slot kept out of the pool meanwhile would come back only after a second.
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('closes at once, its slots kept for the next message or still under way', async () => {
    let closed: Promise<void> | undefined;
    const under: { transport?: CampaignTransport } = {};
    smtp = await startSmtpSink({
      responder: (mail) => {
        // The second message is under way when the transport closes.
        if (mail.subject === 'Hello r1@example.tn') closed ??= under.transport?.close();
        return undefined;
      },
    });
    const sending = createCampaignTransport(smtp.url, 1);
    under.transport = sending;
    const started = Date.now();

    await sending.send(message('r0@example.tn'));
    await sending.send(message('r1@example.tn'));
    await closed;

    expect(smtp.received).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(900);
  });
});
