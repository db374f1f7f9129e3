import type { Socket } from 'node:net';

/** A message the server took: its reply to the end of the data. */
export interface AcceptedMessage {
  response: string;
}

/**
 * What a refusal or a lost connection rejects with: the fields
 * `smtp-failure.ts` reads, named as Nodemailer names them, so a campaign's
 * failures are told and classified as the enquiry mail's are.
 */
export interface SmtpSessionError extends Error {
  /** EENVELOPE (MAIL FROM, RCPT TO, DATA refused), EMESSAGE (the message refused), ECONNECTION, EPROTOCOL. */
  code: string;
  /** The server's reply, when it replied. */
  response?: string;
  responseCode?: number;
  command?: string;
}

interface Reply {
  code: number;
  text: string;
}

interface ReplyWaiter {
  resolve(reply: Reply): void;
  reject(error: Error): void;
}

/** A reply longer than this is no SMTP server's: the connection is dropped. */
const MAX_REPLY_CHARS = 64 * 1024;
const DOT = Buffer.from('.');
const LINE_THEN_DOT = Buffer.from('\n.');
const END_AFTER_LINE = Buffer.from('.\r\n');
const END_MID_LINE = Buffer.from('\r\n.\r\n');
const NON_ASCII = /[\u0080-\uffff]/;
const BREAKS_A_COMMAND = /[\r\n<>]/;

function sessionError(
  message: string,
  code: string,
  reply?: Reply,
  command?: string,
): SmtpSessionError {
  const error = new Error(reply ? `${message}: ${reply.text}` : message) as SmtpSessionError;
  error.code = code;
  if (reply) {
    error.response = reply.text;
    error.responseCode = reply.code;
  }
  if (command) error.command = command;
  return error;
}

const isPositive = (reply: Reply) => reply.code >= 200 && reply.code < 300;

/**
 * The message's bytes as DATA carries them (RFC 5321 4.5.2): a line that
 * starts with a dot gets a second one. Most messages have none, and go as
 * they are.
 */
export function dotStuffed(body: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  if (body[0] === DOT[0]) pieces.push(DOT);
  let start = 0;
  for (let at = body.indexOf(LINE_THEN_DOT); at !== -1; at = body.indexOf(LINE_THEN_DOT, start)) {
    pieces.push(body.subarray(start, at + 1), DOT);
    start = at + 1;
  }
  pieces.push(start === 0 ? body : body.subarray(start));
  return pieces;
}

/**
 * One SMTP session's mail transactions, over a connection Nodemailer has
 * opened, secured and signed in (`takeOverConnection`). It sends messages
 * already whole, one at a time: the envelope and DATA in one write when the
 * server offers PIPELINING (RFC 2920), else command by command; then the
 * message and its end in one more. Nodemailer's own transaction streams each
 * message through a dot-stuffing transform and handles each reply on a turn
 * of the event loop of its own: for a campaign's short messages that was a
 * quarter of the sender's CPU per message (docs/benchmarks.md).
 *
 * A campaign message has one recipient; a refused one refuses the message.
 */
export class CampaignSmtpSession {
  readonly #socket: Socket;
  readonly #pipelining: boolean;
  readonly #smtpUtf8: boolean;
  #received = '';
  #replyLines: string[] = [];
  readonly #waiters: ReplyWaiter[] = [];
  #closed: SmtpSessionError | undefined;

  constructor(socket: Socket, extensions: readonly string[]) {
    this.#socket = socket;
    this.#pipelining = extensions.includes('PIPELINING');
    this.#smtpUtf8 = extensions.includes('SMTPUTF8');
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.once('close', () =>
      this.#fail(sessionError('Connection closed unexpectedly', 'ECONNECTION')),
    );
  }

  /** Sends one whole message; resolves with the server's acceptance, rejects with its refusal. */
  async send(
    envelope: { from: string; to: readonly string[] },
    body: Buffer,
  ): Promise<AcceptedMessage> {
    const mailFrom = this.#mailFromCommand(envelope);
    const commands = [mailFrom, ...envelope.to.map((to) => `RCPT TO:<${to}>`), 'DATA'];
    const replies = this.#pipelining
      ? await this.#pipelined(commands)
      : await this.#oneByOne(commands);
    const dataReply = replies[commands.length - 1];
    const refused = replies.findIndex(
      (reply, index) => index < commands.length - 1 && !isPositive(reply),
    );
    if (refused !== -1) {
      // With PIPELINING, DATA was sent too; a server refuses it when no recipient was taken (RFC 2920, 3.1).
      const reply = replies[refused] as Reply;
      throw sessionError(
        refused === 0 ? 'Mail command failed' : "Can't send mail - all recipients were rejected",
        'EENVELOPE',
        reply,
        refused === 0 ? 'MAIL FROM' : 'RCPT TO',
      );
    }
    if (dataReply?.code !== 354) {
      throw sessionError('Data command failed', 'EENVELOPE', dataReply, 'DATA');
    }
    const accepted = this.#nextReply();
    this.#socket.cork();
    for (const piece of dotStuffed(body)) this.#socket.write(piece);
    this.#socket.write(body.at(-1) === 0x0a ? END_AFTER_LINE : END_MID_LINE);
    this.#socket.uncork();
    const reply = await accepted;
    if (!isPositive(reply)) throw sessionError('Message failed', 'EMESSAGE', reply, 'DATA');
    return { response: reply.text };
  }

  /** RSET: the session is ready for the next message after a refused one. Rejects when it is not. */
  async reset(): Promise<void> {
    const reply = await this.#command('RSET');
    if (!isPositive(reply))
      throw sessionError('Could not reset session', 'EPROTOCOL', reply, 'RSET');
  }

  /** Says goodbye and closes: the server hangs up after its 221. */
  quit(): void {
    if (!this.#closed) this.#socket.end('QUIT\r\n');
  }

  #mailFromCommand({ from, to }: { from: string; to: readonly string[] }): string {
    const addresses = [from, ...to];
    if (to.length === 0) throw sessionError('No recipients defined', 'EENVELOPE');
    const broken = addresses.find((address) => BREAKS_A_COMMAND.test(address));
    if (broken !== undefined) {
      throw sessionError(`Invalid address ${JSON.stringify(broken)}`, 'EENVELOPE');
    }
    const international = addresses.some((address) => NON_ASCII.test(address));
    if (international && !this.#smtpUtf8) {
      throw sessionError('Internationalized mailbox name not allowed', 'EENVELOPE');
    }
    return `MAIL FROM:<${from}>${international ? ' SMTPUTF8' : ''}`;
  }

  #pipelined(commands: readonly string[]): Promise<Reply[]> {
    const replies = commands.map(() => this.#nextReply());
    this.#write(commands.map((command) => `${command}\r\n`).join(''));
    return Promise.all(replies);
  }

  /** Without PIPELINING: each command waits for the reply before; the first refusal ends the envelope. */
  async #oneByOne(commands: readonly string[]): Promise<Reply[]> {
    const replies: Reply[] = [];
    for (const command of commands) {
      const reply = await this.#command(command);
      replies.push(reply);
      if (!isPositive(reply) && reply.code !== 354) break;
    }
    return replies;
  }

  #command(command: string): Promise<Reply> {
    const reply = this.#nextReply();
    this.#write(`${command}\r\n`);
    return reply;
  }

  #write(text: string): void {
    if (!this.#closed) this.#socket.write(text);
  }

  #nextReply(): Promise<Reply> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Replies end with CRLF; a multiline reply's lines but the last have a hyphen after the code. */
  #read(chunk: Buffer): void {
    this.#received += chunk.toString('latin1');
    for (let end = this.#received.indexOf('\n'); end !== -1; end = this.#received.indexOf('\n')) {
      const line = this.#received.slice(0, end).replace(/\r$/, '');
      this.#received = this.#received.slice(end + 1);
      this.#replyLines.push(line);
      if (line.charAt(3) === '-') continue;
      // Servers answer in UTF-8 more and more; the bytes were kept as they came.
      const text = Buffer.from(this.#replyLines.join('\n'), 'latin1').toString('utf8');
      this.#replyLines = [];
      this.#answer({ code: Number(line.slice(0, 3)), text });
    }
    const held =
      this.#received.length + this.#replyLines.reduce((sum, line) => sum + line.length, 0);
    if (held > MAX_REPLY_CHARS) {
      this.#fail(sessionError('Server response exceeds maximum allowed size', 'EPROTOCOL'));
    }
  }

  #answer(reply: Reply): void {
    const waiter = this.#waiters.shift();
    if (waiter) return waiter.resolve(reply);
    // Nothing was asked: a 421 before hanging up, or a server out of step.
    this.#fail(sessionError('Unexpected response', 'EPROTOCOL', reply));
  }

  /** Every reply still awaited fails with `error`, and so does anything asked later. */
  #fail(error: SmtpSessionError): void {
    if (this.#closed) return;
    this.#closed = error;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
    this.#socket.destroy();
  }
}
