import { Socket, createConnection, createServer, type Server } from 'node:net';
import { isPermanentSmtpFailure } from '../mail/smtp-failure';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import type { RawCampaignMessage } from './campaign-mime';
import { CampaignSmtpSession, dotStuffed } from './campaign-smtp-session';
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
 * waited for a reply. With `repliesHeldMs`, the server's replies reach the
 * client in one read per that long, as a busy server's pipelined replies do:
 * one message's acceptance and the next one's 354 together.
 */
async function recordingRelay(
  sink: SmtpSink,
  { repliesHeldMs }: { repliesHeldMs?: number } = {},
): Promise<{ url: string; chunks: string[]; close(): Promise<void> }> {
  const { port, hostname } = new URL(sink.url);
  const chunks: string[] = [];
  const relay: Server = createServer((client) => {
    const server = createConnection(Number(port), hostname);
    client.on('data', (chunk) => {
      chunks.push(chunk.toString('utf8'));
      server.write(chunk);
    });
    if (repliesHeldMs === undefined) server.pipe(client);
    else holdReplies(server, client, repliesHeldMs);
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

/** Passes what `from` reads on to `to` in one write per `heldMs`. */
function holdReplies(from: Socket, to: Socket, heldMs: number): void {
  let held: Buffer[] = [];
  from.on('data', (chunk: Buffer) => {
    if (held.length === 0) {
      setTimeout(() => {
        to.write(Buffer.concat(held));
        held = [];
      }, heldMs);
    }
    held.push(chunk);
  });
  from.on('end', () => to.end());
}

type WritevChunks = Parameters<NonNullable<Socket['_writev']>>[0];

/**
 * What the client's sockets to `port` hand the kernel, write by write (a
 * corked run of writes is one): what went out in one write, however TCP
 * then splits or joins it on the way.
 */
function socketWritesTo(port: number): { writes: string[]; restore(): void } {
  const writes: string[] = [];
  const { _write: write, _writev: writev } = Socket.prototype;
  const record = (socket: Socket, text: string) => {
    if (socket.remotePort === port) writes.push(text);
  };
  const one = jest.spyOn(Socket.prototype, '_write').mockImplementation(function (
    this: Socket,
    chunk: Buffer | string,
    encoding,
    callback,
  ) {
    record(this, chunk.toString());
    return write.call(this, chunk, encoding, callback);
  });
  const many = jest.spyOn(Socket.prototype, '_writev').mockImplementation(function (
    this: Socket,
    chunks: WritevChunks,
    callback,
  ) {
    record(this, chunks.map(({ chunk }) => String(chunk)).join(''));
    return writev?.call(this, chunks, callback);
  });
  return {
    writes,
    restore: () => {
      one.mockRestore();
      many.mockRestore();
    },
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

  /**
   * Gives two messages at once to one connection, through the recording
   * relay to `sink`: answers what the first was refused with.
   */
  async function twoAtOnce(sink: SmtpSink, first: string, second: string): Promise<unknown> {
    smtp = sink;
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);
    const sending = transport;
    const [refusal] = await Promise.all([
      sending.send(message(first)).catch((error: unknown) => error),
      sending.send(message(second)),
    ]);
    return refusal;
  }

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

  it('writes a message and the next one’s envelope in one write to a server that offers PIPELINING', async () => {
    smtp = await startSmtpSink();
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);
    const sending = transport;
    const watch = socketWritesTo(Number(new URL(relay.url).port));

    try {
      await Promise.all(
        ['first', 'second', 'third'].map((name) => sending.send(message(`${name}@example.tn`))),
      );
    } finally {
      watch.restore();
    }

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      ['first@example.tn'],
      ['second@example.tn'],
      ['third@example.tn'],
    ]);
    expect(smtp.connectionsOpened()).toBe(1);
    // Four writes in all: an envelope, each message with the next envelope, the last message.
    const envelope = (to: string) =>
      `MAIL FROM:<no-reply@agency.test>\r\nRCPT TO:<${to}>\r\nDATA\r\n`;
    const mail = watch.writes.filter((write) => !/^(EHLO|QUIT)/.test(write));
    expect(mail).toHaveLength(4);
    expect(mail[0]).toBe(envelope('first@example.tn'));
    expect(mail[1]).toMatch(/Hello first@example\.tn.*\r\n\.\r\n/s);
    expect(mail[1]?.endsWith(`\r\n.\r\n${envelope('second@example.tn')}`)).toBe(true);
    expect(mail[2]?.endsWith(`\r\n.\r\n${envelope('third@example.tn')}`)).toBe(true);
    expect(mail[3]).toMatch(/Hello third@example\.tn.*\r\n\.\r\n$/s);
  });

  it('writes a message with the envelope its sender gives next, once the previous one is accepted', async () => {
    smtp = await startSmtpSink();
    relay = await recordingRelay(smtp, { repliesHeldMs: 30 });
    transport = createCampaignTransport(relay.url, 1);
    const sending = transport;
    const watch = socketWritesTo(Number(new URL(relay.url).port));
    // Two senders on the connection's two slots, each giving its next message once its last is accepted.
    const sender = async (name: string) => {
      for (let index = 1; index <= 3; index += 1) {
        await sending.send(message(`${name}${index}@example.tn`));
      }
    };

    try {
      await Promise.all([sender('a'), sender('b')]);
    } finally {
      watch.restore();
    }

    expect(smtp.received).toHaveLength(6);
    const mail = watch.writes.filter((write) => !/^(EHLO|QUIT)/.test(write));
    // One write per message: each body but the last goes with the envelope given after it.
    expect(mail).toHaveLength(7);
    const middle = mail.slice(1, -1);
    expect(middle.every((write) => /\r\n\.\r\nMAIL FROM:[^]*\r\nDATA\r\n$/.test(write))).toBe(true);
  });

  it('resets after a refused recipient, then sends the message given meanwhile', async () => {
    const refusal = await twoAtOnce(
      await startSmtpSink({
        refuseRecipient: (address) =>
          address === 'gone@example.tn' ? { code: 550, message: '5.1.1 No such user' } : undefined,
      }),
      'gone@example.tn',
      'here@example.tn',
    );

    expect(refusal).toMatchObject({ code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['here@example.tn']]);
    expect(commandChunks()).toEqual([
      'MAIL FROM:<no-reply@agency.test>\r\nRCPT TO:<gone@example.tn>\r\nDATA\r\n',
      'RSET\r\n',
      'MAIL FROM:<no-reply@agency.test>\r\nRCPT TO:<here@example.tn>\r\nDATA\r\n',
    ]);
    expect(smtp.connectionsOpened()).toBe(1);
  });

  it('needs no reset after a refused message when the next envelope went with it', async () => {
    const refusal = await twoAtOnce(
      await startSmtpSink({
        responder: (mail) =>
          mail.subject === 'Hello gone@example.tn'
            ? { code: 550, message: '5.1.1 Recipient address rejected' }
            : undefined,
      }),
      'gone@example.tn',
      'here@example.tn',
    );

    expect(refusal).toMatchObject({ code: 'EMESSAGE', responseCode: 550 });
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['here@example.tn']]);
    expect(relay?.chunks.join('')).not.toContain('RSET');
  });

  it('says goodbye after the reset a refusal queued, when the transport closes meanwhile', async () => {
    let closing: Promise<void> | undefined;
    const under: { transport?: CampaignTransport } = {};
    smtp = await startSmtpSink({
      // The transport closes while the message is under way, before it is refused.
      responder: () => {
        closing ??= under.transport?.close();
        return { code: 550, message: '5.7.1 Message refused' };
      },
    });
    relay = await recordingRelay(smtp);
    const sending = createCampaignTransport(relay.url, 1);
    under.transport = sending;

    const refusal = await sending.send(message('gone@example.tn')).catch((error: unknown) => error);
    await closing;

    expect(refusal).toMatchObject({ code: 'EMESSAGE', responseCode: 550 });
    // What the relay read by now: the session's last words.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(relay.chunks.join('')).toMatch(/\r\n\.\r\nRSET\r\nQUIT\r\n$/);
  });

  it('sends a message whose envelope went on a connection that then ended over another one, once', async () => {
    const refusal = await twoAtOnce(
      await startSmtpSink({
        responder: (mail) => {
          if (mail.subject !== 'Hello busy@example.tn') return undefined;
          setImmediate(() => smtp.dropConnections());
          return { code: 421, message: '4.3.2 Service shutting down' };
        },
      }),
      'busy@example.tn',
      'next@example.tn',
    );

    expect(isPermanentSmtpFailure(refusal)).toBe(false);
    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([['next@example.tn']]);
    expect(smtp.connectionsOpened()).toBe(2);
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

  it('waits for a message’s reply before the next envelope without PIPELINING', async () => {
    smtp = await startSmtpSink({ withoutPipelining: true });
    relay = await recordingRelay(smtp);
    transport = createCampaignTransport(relay.url, 1);
    const sending = transport;

    await Promise.all(['one', 'two'].map((name) => sending.send(message(`${name}@example.tn`))));

    expect(smtp.received.map(({ envelopeTo }) => envelopeTo)).toEqual([
      ['one@example.tn'],
      ['two@example.tn'],
    ]);
    expect(smtp.connectionsOpened()).toBe(1);
    expect(commandChunks()).toEqual([
      'MAIL FROM:<no-reply@agency.test>\r\n',
      'RCPT TO:<one@example.tn>\r\n',
      'DATA\r\n',
      'MAIL FROM:<no-reply@agency.test>\r\n',
      'RCPT TO:<two@example.tn>\r\n',
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

describe("the campaign's SMTP session reading replies", () => {
  /**
   * A server that answers an envelope and each message with `afterMessage`,
   * written in the pieces given (a reply may arrive split anywhere, even
   * inside a character), and a session over a connection to it.
   */
  async function sessionAgainst(afterMessage: Buffer[]) {
    const server = createServer((socket) => {
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (received.endsWith('DATA\r\n')) {
          received = '';
          socket.write('250 2.1.0 Ok\r\n250 2.1.5 Ok\r\n354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (received.endsWith('\r\n.\r\n')) {
          received = '';
          afterMessage.forEach((piece, index) => setTimeout(() => socket.write(piece), index * 20));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no port');
    const socket = createConnection(address.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return {
      session: new CampaignSmtpSession(socket, ['PIPELINING']),
      close: () => {
        socket.destroy();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  const envelope = { from: 'no-reply@agency.test', to: ['amira@example.tn'] };
  const body = Buffer.from('Subject: Hello\r\n\r\nHello\r\n');

  it('reads a reply split across reads, inside a line and inside a character', async () => {
    const reply = Buffer.from('250 2.0.0 Ok: queued as Ré1\r\n');
    const split = reply.indexOf(0xa9);
    const { session, close } = await sessionAgainst([
      reply.subarray(0, 6),
      reply.subarray(6, split),
      reply.subarray(split),
    ]);
    try {
      await expect(session.send(envelope, body)).resolves.toEqual({
        response: '250 2.0.0 Ok: queued as Ré1',
      });
    } finally {
      await close();
    }
  });

  it('reads a reply whose lines end with a bare LF, as some servers write them', async () => {
    const { session, close } = await sessionAgainst([
      Buffer.from('250-2.0.0 First line\n250 2.0.0 Ok: queued as B1\n'),
    ]);
    try {
      await expect(session.send(envelope, body)).resolves.toEqual({
        response: '250-2.0.0 First line\n250 2.0.0 Ok: queued as B1',
      });
    } finally {
      await close();
    }
  });

  it.each([
    ['one line that never ends', [Buffer.from(`250 ${'x'.repeat(70 * 1024)}`)]],
    ['lines of a reply that never ends', [Buffer.from(`250-${'y'.repeat(60)}\r\n`.repeat(1200))]],
  ])('ends the session when a reply grows past 64 KiB: %s', async (_kind, afterMessage) => {
    const { session, close } = await sessionAgainst(afterMessage);
    try {
      await expect(session.send(envelope, body)).rejects.toMatchObject({
        code: 'EPROTOCOL',
        message: 'Server response exceeds maximum allowed size',
      });
      expect(session.usable).toBe(false);
    } finally {
      await close();
    }
  });

  it('gives a refusal of several lines whole, in UTF-8, its line ends as LF', async () => {
    const { session, close } = await sessionAgainst([
      Buffer.from('550-5.7.1 Message refusé\r\n550-5.7.1 voir'),
      Buffer.from(' https://example.tn/r\r\n550 5.7.1 Rejected\r\n'),
    ]);
    try {
      await expect(session.send(envelope, body)).rejects.toMatchObject({
        code: 'EMESSAGE',
        responseCode: 550,
        response:
          '550-5.7.1 Message refusé\n550-5.7.1 voir https://example.tn/r\n550 5.7.1 Rejected',
      });
    } finally {
      await close();
    }
  });
});
