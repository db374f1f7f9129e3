import { createConnection, createServer, type Server } from 'node:net';
import { isPermanentSmtpFailure } from '../mail/smtp-failure';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import type { RawCampaignMessage } from './campaign-mime';
import { dotStuffed } from './campaign-smtp-session';
import { createCampaignTransport, type CampaignTransport } from './campaign-transport';

function message(to: string, body = 'Hello'): RawCampaignMessage {
  const raw = [
    'From: Agency <no-reply@agency.test>',
    `To: ${to}`,
    `Subject: Hello ${to}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ].join('\r\n');
  return { envelope: { from: 'no-reply@agency.test', to: [to] }, pieces: [raw] };
}

/**
 * A TCP relay in front of the real SMTP server that keeps each chunk the
 * client wrote, as the server read it: what went out in one write, and what
 * waited for a reply.
 */
async function recordingRelay(
  sink: SmtpSink,
): Promise<{ url: string; chunks: string[]; close(): Promise<void> }> {
  const { port, hostname } = new URL(sink.url);
  const chunks: string[] = [];
  const relay: Server = createServer((client) => {
    const server = createConnection(Number(port), hostname);
    client.on('data', (chunk) => {
      chunks.push(chunk.toString('utf8'));
      server.write(chunk);
    });
    server.pipe(client);
    client.on('close', () => server.destroy());
    server.on('close', () => client.destroy());
    client.on('error', () => undefined);
    server.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    chunks,
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

describe('dot-stuffing the message for DATA', () => {
  const stuffed = (text: string) => Buffer.concat(dotStuffed(Buffer.from(text))).toString();

  it('doubles the dot that starts a line, the first line included', () => {
    expect(stuffed('.one\r\ntwo\r\n.three\r\n..four\r\n')).toBe(
      '..one\r\ntwo\r\n..three\r\n...four\r\n',
    );
  });

  it('leaves dots inside lines alone', () => {
    expect(stuffed('a.b\r\nc. d.\r\n')).toBe('a.b\r\nc. d.\r\n');
  });

  it('sends a message without such a line as it is', () => {
    const body = Buffer.from('no dots\r\nat line starts\r\n');
    expect(dotStuffed(body)).toEqual([body]);
  });
});

describe("the campaign's SMTP session", () => {
  let smtp: SmtpSink;
  let relay: Awaited<ReturnType<typeof recordingRelay>> | undefined;
  let transport: CampaignTransport | undefined;

  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    await relay?.close();
    relay = undefined;
    await smtp.close();
  });

  const commandChunks = () =>
    relay?.chunks.filter((chunk) => /^(MAIL|RCPT|DATA|RSET)/m.test(chunk)) ?? [];

  it('sends the envelope and DATA in one write to a server that offers PIPELINING', async () => {
    smtp = await startSmtpSink();
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);

    await transport.send(message('first@example.tn'));
    await transport.send(message('second@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      ['first@example.tn'],
      ['second@example.tn'],
    ]);
    expect(commandChunks()).toEqual([
      'MAIL FROM:<no-reply@agency.test>\r\nRCPT TO:<first@example.tn>\r\nDATA\r\n',
      'MAIL FROM:<no-reply@agency.test>\r\nRCPT TO:<second@example.tn>\r\nDATA\r\n',
    ]);
  });

  it('waits for each reply from a server without PIPELINING', async () => {
    smtp = await startSmtpSink({ withoutPipelining: true });
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);

    await transport.send(message('one@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['one@example.tn']]);
    expect(commandChunks()).toEqual([
      'MAIL FROM:<no-reply@agency.test>\r\n',
      'RCPT TO:<one@example.tn>\r\n',
      'DATA\r\n',
    ]);
  });

  it('stops at a refused recipient without PIPELINING, resets, and sends the next message', async () => {
    smtp = await startSmtpSink({
      withoutPipelining: true,
      refuseRecipient: (address) =>
        address === 'gone@example.tn' ? { code: 550, message: '5.1.1 No such user' } : undefined,
    });
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);

    const refusal = await transport
      .send(message('gone@example.tn'))
      .catch((error: unknown) => error);
    await transport.send(message('here@example.tn'));

    expect(refusal).toMatchObject({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    expect(isPermanentSmtpFailure(refusal)).toBe(true);
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['here@example.tn']]);
    // No DATA after the refusal: the envelope ended there, and RSET began the next.
    expect(commandChunks()).toEqual([
      'MAIL FROM:<no-reply@agency.test>\r\n',
      'RCPT TO:<gone@example.tn>\r\n',
      'RSET\r\n',
      'MAIL FROM:<no-reply@agency.test>\r\n',
      'RCPT TO:<here@example.tn>\r\n',
      'DATA\r\n',
    ]);
    expect(smtp.connectionsOpened()).toBe(1);
  });

  it('delivers a message whose lines start with dots as it was written', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1);

    await transport.send(message('dots@example.tn', '.\r\n..two\r\n.three'));

    expect(smtp.received[0]?.mail.text).toBe('.\n..two\n.three\n');
  });

  it('names SMTPUTF8 for an address beyond ASCII, to a server that offers it', async () => {
    smtp = await startSmtpSink();
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);

    await transport.send(message('leïla@example.tn'));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['leïla@example.tn']]);
    expect(commandChunks()[0]).toMatch(/^MAIL FROM:<no-reply@agency\.test> SMTPUTF8\r\n/);
  });

  it('refuses an address beyond ASCII, sending nothing, when the server does not offer SMTPUTF8', async () => {
    smtp = await startSmtpSink({ withoutSmtpUtf8: true });
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);

    const refusal = await transport
      .send(message('leïla@example.tn'))
      .catch((error: unknown) => error);
    await transport.send(message('leila@example.tn'));

    expect(refusal).toMatchObject({ code: 'EENVELOPE' });
    expect(String(refusal)).toContain('Internationalized mailbox name not allowed');
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['leila@example.tn']]);
  });

  it('refuses an address that would break the command, sending nothing', async () => {
    smtp = await startSmtpSink();
    transport = createCampaignTransport(smtp.url, 1);

    const refusal = await transport
      .send(message('x@example.tn>\r\nRCPT TO:<other@example.tn'))
      .catch((error: unknown) => error);

    expect(refusal).toMatchObject({ code: 'EENVELOPE' });
    expect(smtp.received).toHaveLength(0);
  });
});
