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
/** A byte beyond ASCII in text read as latin1: part of a UTF-8 character. */
const NON_ASCII_BYTE = /[\x80-\xff]/;
const CR = 0x0d;
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

const ignoreEnd = (): void => undefined;

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
 * What a message that never went rejects with: the session ended before
 * its body was written, so the server cannot have taken it, and it may go
 * over another connection as it is (`cause` says why the session ended).
 */
export class MessageNotSentError extends Error {
  constructor(override readonly cause: SmtpSessionError) {
    super(`Message not sent: ${cause.message}`);
  }
}

/** One message's transaction: its commands (the envelope, then DATA), its bytes, and who waits for it. */
interface Transaction {
  commands: readonly string[];
  body: Buffer;
  /** True once its body is in the socket: from then on it may have been taken. */
  bodyWritten: boolean;
  resolve(accepted: AcceptedMessage): void;
  reject(error: Error): void;
}

/**
 * One SMTP session's mail transactions, over a connection Nodemailer has
 * opened, secured and signed in (`takeOverConnection`). It sends messages
 * already whole. To a server that offers PIPELINING (RFC 2920) the
 * envelope and DATA go in one write, and once the server has said 354 the
 * message, its end and the next message's envelope go in one more: a
 * message given while another is under way costs one write and one read.
 * Writes wait for the end of the turn of the event loop, so a message given
 * in the turn that accepted its sender's last one joins the write too.
 * Without PIPELINING, each command waits for its reply. Nodemailer's own
 * transaction streams each message through a dot-stuffing transform and
 * handles each reply on a turn of the event loop of its own: for a
 * campaign's short messages that was a quarter of the sender's CPU per
 * message (docs/benchmarks.md).
 *
 * A campaign message has one recipient; a refused one refuses the message.
 * After a refusal the session is reset (RSET) before the next message,
 * unless that message's envelope already went; a session that cannot be
 * reset, or whose connection ends, fails every message still under way,
 * those whose body never went with `MessageNotSentError`.
 */
export class CampaignSmtpSession {
  readonly #socket: Socket;
  readonly #pipelining: boolean;
  readonly #smtpUtf8: boolean;
  #received = '';
  #replyLines: string[] = [];
  readonly #waiters: ReplyWaiter[] = [];
  #closed: SmtpSessionError | undefined;
  /** Messages given while the session could not write their envelope yet. */
  readonly #queue: Transaction[] = [];
  /** Messages written in part and not answered yet, in the order they went. */
  readonly #underWay = new Set<Transaction>();
  /**
   * Nothing may be written: a DATA waits for its 354 (the server would read
   * anything after it as the message), or a RSET for its reply.
   */
  #holding = false;
  /** What this turn gave to write: one write at its end (`#writeAll`). */
  #unwritten: Buffer[] = [];

  constructor(socket: Socket, extensions: readonly string[]) {
    this.#socket = socket;
    this.#pipelining = extensions.includes('PIPELINING');
    this.#smtpUtf8 = extensions.includes('SMTPUTF8');
    socket.on('data', (chunk: Buffer) => this.#read(chunk));
    socket.once('close', () =>
      this.#fail(sessionError('Connection closed unexpectedly', 'ECONNECTION')),
    );
  }

  /** False once the connection failed or closed: it carries no more messages. */
  get usable(): boolean {
    return this.#closed === undefined;
  }

  /**
   * Sends one whole message; resolves with the server's acceptance, rejects
   * with its refusal. Messages given at once go in the order given.
   */
  send(envelope: { from: string; to: readonly string[] }, body: Buffer): Promise<AcceptedMessage> {
    return new Promise((resolve, reject) => {
      const commands = [
        this.#mailFromCommand(envelope),
        ...envelope.to.map((to) => `RCPT TO:<${to}>`),
        'DATA',
      ];
      const transaction: Transaction = { commands, body, bodyWritten: false, resolve, reject };
      if (this.#closed) return reject(new MessageNotSentError(this.#closed));
      this.#queue.push(transaction);
      if (!this.#holding) this.#next();
    });
  }

  /** Says goodbye and closes: the server hangs up after its 221. */
  quit(): void {
    if (this.#closed) return;
    this.#flush();
    this.#socket.end('QUIT\r\n');
  }

  /** Starts the next message given, its envelope after `leading` (the last message's body) in one write. */
  #next(leading: readonly Buffer[] = []): void {
    const transaction = this.#queue.shift();
    if (!transaction) {
      this.#writeAll(leading);
      return;
    }
    this.#underWay.add(transaction);
    this.#holding = true;
    if (this.#pipelining) {
      const { commands } = transaction;
      const replies: Reply[] = [];
      const collect = (reply: Reply) => {
        if (replies.push(reply) === commands.length) this.#afterEnvelope(transaction, replies);
      };
      for (let index = 0; index < commands.length; index += 1) this.#onNextReply(collect);
      this.#writeAll(leading);
      this.#writeAll([Buffer.from(`${commands.join('\r\n')}\r\n`)]);
    } else {
      this.#writeAll(leading);
      void this.#oneByOne(transaction.commands).then(
        (answered) => this.#afterEnvelope(transaction, answered),
        () => undefined,
      );
    }
  }

  /** The envelope answered: the message goes (with the next envelope), or the refusal is told. */
  #afterEnvelope(transaction: Transaction, replies: readonly Reply[]): void {
    const { commands } = transaction;
    const dataReply = replies[commands.length - 1];
    const refused = replies.findIndex(
      (reply, index) => index < commands.length - 1 && !isPositive(reply),
    );
    if (refused !== -1 || dataReply?.code !== 354) {
      const refusal =
        refused === -1
          ? sessionError('Data command failed', 'EENVELOPE', dataReply, 'DATA')
          : // With PIPELINING, DATA was sent too; a server refuses it when no recipient was taken (RFC 2920, 3.1).
            sessionError(
              refused === 0
                ? 'Mail command failed'
                : "Can't send mail - all recipients were rejected",
              'EENVELOPE',
              replies[refused],
              refused === 0 ? 'MAIL FROM' : 'RCPT TO',
            );
      this.#settle(transaction, refusal);
      // A server that took DATA after refusing the only recipient reads on as the message: it cannot be told apart.
      if (dataReply?.code === 354) {
        this.#fail(
          sessionError('Data accepted without a recipient', 'EPROTOCOL', dataReply, 'DATA'),
        );
        return;
      }
      this.#reset();
      return;
    }
    this.#onNextReply((reply) => this.#afterMessage(transaction, reply));
    const message = dotStuffed(transaction.body);
    message.push(transaction.body.at(-1) === 0x0a ? END_AFTER_LINE : END_MID_LINE);
    transaction.bodyWritten = true;
    if (this.#pipelining) {
      this.#holding = false;
      this.#next(message);
    } else {
      // Without PIPELINING the next MAIL FROM waits for the reply to this message.
      this.#writeAll(message);
    }
  }

  /** The message answered: accepted, or refused and the session reset. */
  #afterMessage(transaction: Transaction, reply: Reply): void {
    if (isPositive(reply)) this.#settle(transaction, undefined, { response: reply.text });
    else this.#settle(transaction, sessionError('Message failed', 'EMESSAGE', reply, 'DATA'));
    if (this.#pipelining) {
      // The next message's envelope, when it went with this one, began a new transaction already.
      if (!isPositive(reply) && !this.#holding) this.#reset();
      return;
    }
    if (isPositive(reply)) {
      this.#holding = false;
      this.#next();
    } else {
      this.#reset();
    }
  }

  /** RSET after a refusal: the next message waits for it; a session that refuses it ends. */
  #reset(): void {
    this.#holding = true;
    const reply = this.#nextReply();
    this.#writeAll([Buffer.from('RSET\r\n')]);
    void reply.then(
      (answer) => {
        if (!isPositive(answer)) {
          this.#fail(sessionError('Could not reset session', 'EPROTOCOL', answer, 'RSET'));
          return;
        }
        this.#holding = false;
        this.#next();
      },
      () => undefined,
    );
  }

  #settle(transaction: Transaction, error?: Error, accepted?: AcceptedMessage): void {
    this.#underWay.delete(transaction);
    if (error) transaction.reject(error);
    else if (accepted) transaction.resolve(accepted);
  }

  /**
   * Queues the pieces for one write at the end of this turn of the event
   * loop. A reply read settles one message and, in the same turn, lets its
   * sender give the next one: that message's envelope then goes in the same
   * write as the body the next reply released, where it would otherwise
   * cost a write (a system call, and on loopback the server's read) of its own.
   */
  #writeAll(pieces: readonly Buffer[]): void {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: #flush writes nothing once closed, nor of no pieces; the check spares a tick
    if (this.#closed || pieces.length === 0) return;
    // Stryker disable next-line ConditionalExpression: a second flush in a turn finds nothing to write
    if (this.#unwritten.length === 0) queueMicrotask(this.#flushAfterTurn);
    this.#unwritten.push(...pieces);
  }

  /**
   * A tick queued from a promise job runs once every promise job of the turn
   * has run, the senders' included; queued straight from a read, it would run
   * before them.
   */
  readonly #flushAfterTurn = (): void => {
    process.nextTick(this.#flush);
  };

  /** Writes what this turn queued. */
  readonly #flush = (): void => {
    const pieces = this.#unwritten;
    this.#unwritten = [];
    // Stryker disable next-line ConditionalExpression: a closed session's socket is destroyed, and drops what is written to it
    if (this.#closed) return;
    this.#socket.cork();
    for (const piece of pieces) this.#socket.write(piece);
    this.#socket.uncork();
  };

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
    this.#writeAll([Buffer.from(`${command}\r\n`)]);
    return reply;
  }

  /**
   * Hands the next reply to `onReply` as it is read, with no promise between:
   * a message's envelope and its end are four replies. A session that ends
   * first fails its messages itself (`#fail`), so nothing else is told.
   */
  #onNextReply(onReply: (reply: Reply) => void): void {
    if (!this.#closed) this.#waiters.push({ resolve: onReply, reject: ignoreEnd });
  }

  #nextReply(): Promise<Reply> {
    if (this.#closed) return Promise.reject(this.#closed);
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Replies end with CRLF; a multiline reply's lines but the last have a hyphen after the code. */
  #read(chunk: Buffer): void {
    const received = this.#received + chunk.toString('latin1');
    let start = 0;
    for (let end = received.indexOf('\n'); end !== -1; end = received.indexOf('\n', start)) {
      const line = received.slice(
        start,
        received.charCodeAt(end - 1) === CR && end > start ? end - 1 : end,
      );
      start = end + 1;
      if (line.charAt(3) === '-') {
        this.#replyLines.push(line);
        continue;
      }
      this.#answer({ code: Number(line.slice(0, 3)), text: this.#replyText(line) });
    }
    this.#received = received.slice(start);
    const held =
      this.#received.length + this.#replyLines.reduce((sum, line) => sum + line.length, 0);
    if (held > MAX_REPLY_CHARS) {
      this.#fail(sessionError('Server response exceeds maximum allowed size', 'EPROTOCOL'));
    }
  }

  /** A reply's text from its lines, read as latin1: servers answer in UTF-8 more and more. */
  #replyText(lastLine: string): string {
    let text = lastLine;
    if (this.#replyLines.length > 0) {
      this.#replyLines.push(lastLine);
      text = this.#replyLines.join('\n');
      this.#replyLines = [];
    }
    // ASCII, as nearly every reply is, reads the same either way.
    return NON_ASCII_BYTE.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
  }

  #answer(reply: Reply): void {
    const waiter = this.#waiters.shift();
    if (waiter) return waiter.resolve(reply);
    // Nothing was asked: a 421 before hanging up, or a server out of step.
    this.#fail(sessionError('Unexpected response', 'EPROTOCOL', reply));
  }

  /**
   * Every message under way or given fails with `error` (one whose body
   * never went, as not sent), and so does anything asked later.
   */
  #fail(error: SmtpSessionError): void {
    if (this.#closed) return;
    this.#closed = error;
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
    for (const transaction of [...this.#underWay, ...this.#queue.splice(0)]) {
      this.#settle(transaction, transaction.bodyWritten ? error : new MessageNotSentError(error));
    }
    this.#socket.destroy();
  }
}
