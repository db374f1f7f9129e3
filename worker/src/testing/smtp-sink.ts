import { EventEmitter, once } from 'node:events';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  envelopeTo: string[];
  /** MAIL FROM: where bounces of this mail go. */
  envelopeFrom: string;
  mail: ParsedMail;
  /** The SMTP session (connection) that carried it. */
  sessionId: string;
  /** When the sink accepted it (ms since the epoch). */
  receivedAt: number;
}

/** An SMTP reply the sink gives instead of accepting a message. */
export interface SmtpRefusal {
  code: number;
  message: string;
}

/**
 * Decides each delivery attempt: undefined accepts it. `attempt` counts the
 * attempts at this Message-ID, from 1.
 */
export type SmtpResponder = (mail: ParsedMail, attempt: number) => SmtpRefusal | undefined;

export interface SmtpSink {
  url: string;
  /** Every accepted message, in arrival order. */
  received: ReceivedMail[];
  /** How many times each Message-ID was offered, refused attempts included. */
  attempts: Map<string, number>;
  /** Resolves with the first accepted mail matching `predicate`, as soon as it arrives. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `count` mails matching `predicate` have been accepted. */
  waitForCount(
    count: number,
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail[]>;
  setResponder(responder: SmtpResponder | undefined): void;
  /** Connections clients have opened so far. */
  connectionsOpened(): number;
  /** Ends every open client connection from the server's side, as an idle timeout does. */
  dropConnections(): void;
  /** Stops listening and drops every connection: a server that is down refuses connections. */
  stop(): Promise<void>;
  /** Listens again on the same port, keeping what it received. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

function refusalError({ code, message }: SmtpRefusal): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A real SMTP server inside the test that keeps and parses what it receives,
 * and can refuse messages with the replies a real server gives (451, 550).
 */
export async function startSmtpSink(
  options: {
    responder?: SmtpResponder;
    /** Refuses RCPT TO for the addresses it answers for (undefined accepts). */
    refuseRecipient?: (address: string) => SmtpRefusal | undefined;
    /** Offers AUTH with these credentials, and requires it unless `optional`. */
    auth?: { user: string; pass: string; optional?: boolean };
    /** Answers RSET as a command it does not know, as a few servers do. */
    refuseReset?: boolean;
    /** Leaves PIPELINING (RFC 2920) out of its EHLO reply: every command waits for the reply before. */
    withoutPipelining?: boolean;
    /** Leaves SMTPUTF8 (RFC 6531) out of its EHLO reply: no address beyond ASCII. */
    withoutSmtpUtf8?: boolean;
  } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const attempts = new Map<string, number>();
  const arrivals = new EventEmitter();
  let responder = options.responder;
  let connectionsOpened = 0;
  const { auth } = options;

  function accept(session: SMTPServerSession, mail: ParsedMail): void {
    const entry = {
      envelopeTo: session.envelope.rcptTo.map((r) => r.address),
      envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      mail,
      sessionId: session.id,
      receivedAt: Date.now(),
    };
    received.push(entry);
    arrivals.emit('mail', entry);
  }

  const server = new SMTPServer({
    authOptional: !auth || auth.optional === true,
    disabledCommands: [
      'STARTTLS',
      ...(auth ? [] : ['AUTH']),
      ...(options.refuseReset ? ['RSET'] : []),
    ],
    // Credentials in clear text are fine on loopback, in a test.
    allowInsecureAuth: true,
    hidePIPELINING: options.withoutPipelining === true,
    hideSMTPUTF8: options.withoutSmtpUtf8 === true,
    logger: false,
    onConnect(_session, callback) {
      connectionsOpened += 1;
      callback();
    },
    onAuth(login, _session, callback) {
      if (login.username === auth?.user && login.password === auth?.pass) {
        callback(null, { user: login.username });
      } else {
        callback(Object.assign(new Error('5.7.8 Authentication failed'), { responseCode: 535 }));
      }
    },
    onRcptTo(address, _session, callback) {
      const refusal = options.refuseRecipient?.(address.address);
      callback(refusal ? refusalError(refusal) : undefined);
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const id = mail.messageId ?? '';
          const attempt = (attempts.get(id) ?? 0) + 1;
          attempts.set(id, attempt);
          const refusal = responder?.(mail, attempt);
          if (refusal) {
            callback(refusalError(refusal));
            return;
          }
          accept(session, mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  // A client that dies mid-session (a worker killed in a test) resets its
  // connection: that is the client's failure, not the sink's.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('SMTP sink has no port');

  function dropConnections(): void {
    // smtp-server keeps its open connections in a set its types do not declare.
    const { connections } = server as unknown as { connections: Set<{ close(): void }> };
    for (const connection of [...connections]) connection.close();
  }

  async function waitForCount(
    count: number,
    predicate: (mail: ReceivedMail) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<ReceivedMail[]> {
    const signal = AbortSignal.timeout(timeoutMs);
    for (;;) {
      const matching = received.filter(predicate);
      if (matching.length >= count) return matching;
      try {
        await once(arrivals, 'mail', { signal });
      } catch {
        throw new Error(
          `expected ${count} matching mails within ${timeoutMs} ms, got ${matching.length} (received ${received.length})`,
        );
      }
    }
  }

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    attempts,
    async waitFor(predicate, timeoutMs) {
      const [first] = await waitForCount(1, predicate, timeoutMs);
      if (!first) throw new Error('unreachable: waitForCount resolved without a mail');
      return first;
    },
    waitForCount,
    setResponder(next) {
      responder = next;
    },
    connectionsOpened: () => connectionsOpened,
    dropConnections,
    async stop() {
      const listening = new Promise<void>((resolve) => server.server.close(() => resolve()));
      dropConnections();
      await listening;
    },
    restart: () =>
      new Promise<void>((resolve) => server.server.listen(address.port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
