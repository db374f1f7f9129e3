import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  envelopeTo: string[];
  mail: ParsedMail;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first mail matching `predicate`, or rejects after `timeoutMs`. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server inside the test that keeps and parses what it receives. */
export async function startSmtpSink(options: { reject?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (options.reject) {
            callback(new Error('mailbox unavailable'));
            return;
          }
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('SMTP sink has no port');

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const match = received.find(predicate);
        if (match) return match;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no matching mail within ${timeoutMs} ms (received ${received.length})`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
