import {
  foldLines,
  headerValueEncoder,
  type HeaderValueEncoder,
  type MimeNode,
} from './nodemailer-internals';

/** The headers that name one recipient, as each campaign mail carries them. */
export interface RecipientHeadFields {
  to: string;
  subject: string;
  messageId: string;
  /** The List-Unsubscribe header's address (RFC 8058 one-click), without its `<>`. */
  listUnsubscribeUrl: string;
  date: Date;
}

/** A recipient's header block, and the envelope's recipients it names. */
export interface RecipientHead {
  text: string;
  to: string[];
}

/**
 * An address MimeNode writes as it is, and the envelope takes as it is:
 * ASCII only, no character its address parser reads as structure, and a
 * lower-case domain (it writes domains in lower case and in punycode) whose
 * last label starts with a letter (it writes a domain of digits, `0.0`, as
 * the IPv4 address it may stand for, `0.0.0.0`).
 * Stored addresses are nearly all of this kind.
 */
const PLAIN_MAILBOX =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9-]+\.)+[a-z][a-z0-9-]*$/;

/** Where MimeNode folds a header's line. */
const LINE_LENGTH = 76;

/**
 * A header's line as MimeNode folds it (at 76 characters, at white space
 * only): a shorter line is as it is, and most of a campaign mail's are.
 */
function headerLine(key: string, value: string): string {
  const line = `${key}: ${value}`;
  // Stryker disable next-line ConditionalExpression: folding a shorter line gives it back as it is; the test only spares the call
  return line.length < LINE_LENGTH ? line : foldLines(line, LINE_LENGTH);
}

/**
 * A text header's value MimeNode's encoder gives back as it is: printable
 * ASCII without the `"` it would encode, and no `=?`, which it reads as the
 * start of an encoded word. Subjects are nearly all of this kind, and the
 * List-Unsubscribe address always is.
 */
const PLAIN_TEXT = /^[\x20\x21\x23-\x7e]*$/;
/** A Message-ID the encoder gives back as it is: printable ASCII between its `<>`. */
const PLAIN_MESSAGE_ID = /^<[\x20-\x7e]*>$/;

// Stryker disable next-line ConditionalExpression,StringLiteral: a value not taken as plain goes through the encoder, which gives a plain one back as it is
const isPlainText = (value: string) => PLAIN_TEXT.test(value) && !value.includes('=?');

/**
 * A campaign mail's recipient headers, written as Nodemailer's MimeNode
 * writes them (To, Subject, Message-ID, List-Unsubscribe, Date, in that
 * order) but without building a node per mail: setting five headers on a
 * node, its `buildHeaders` and its `getEnvelope`, which parses the address
 * twice, were about a tenth of the workers' CPU per mail (docs/benchmarks.md,
 * bench:mail). A plain address (`PLAIN_MAILBOX`) is written without its
 * address parser, and a value MimeNode's encoder would give back as it is
 * (`PLAIN_TEXT`, `PLAIN_MESSAGE_ID`) without the encoder, whose header-name
 * normalising alone cost more than the rest of the line; any other value
 * goes through the encoder. Answers undefined for any other address: the caller then builds the node,
 * as before. `campaign-recipient-head.test.ts` holds both to the same bytes.
 */
export function recipientHeadWriter(): (fields: RecipientHeadFields) => RecipientHead | undefined {
  const encode = headerValueEncoder();
  const text = (key: string, value: string) => (isPlainText(value) ? value : encode(key, value));
  const dateLine = dateLineWriter(encode);
  return ({ to, subject, messageId, listUnsubscribeUrl, date }) => {
    if (!PLAIN_MAILBOX.test(to)) return undefined;
    let head = headerLine('To', to);
    // Stryker disable next-line StringLiteral: MimeNode's encoder writes Subject, List-Unsubscribe and a header of no name alike
    const encodedSubject = text('Subject', subject);
    // MimeNode leaves out a header whose value is blank.
    if (encodedSubject.trim()) head += `\r\n${headerLine('Subject', encodedSubject)}`;
    const id = PLAIN_MESSAGE_ID.test(messageId) ? messageId : encode('Message-ID', messageId);
    head += `\r\n${headerLine('Message-ID', id)}`;
    // Stryker disable next-line StringLiteral: as the Subject's
    head += `\r\n${headerLine('List-Unsubscribe', text('List-Unsubscribe', `<${listUnsubscribeUrl}>`))}`;
    return { text: `${head}\r\n${dateLine(date)}`, to: [to] };
  };
}

/**
 * The Date line, written again only when the second changes: the encoder
 * writes a date to the second, and a campaign's mails of one second share it.
 */
function dateLineWriter(encode: HeaderValueEncoder): (date: Date) => string {
  let second = Number.NaN;
  // Stryker disable StringLiteral,ArithmeticOperator,ConditionalExpression: a Date line written again for every mail is the same line; keeping it only saves the time
  let line = '';
  return (date) => {
    const now = Math.floor(date.getTime() / 1000);
    if (now !== second) {
      // Stryker restore StringLiteral,ArithmeticOperator,ConditionalExpression
      second = now;
      line = headerLine('Date', encode('Date', date));
    }
    return line;
  };
}

/**
 * The same headers as MimeNode writes them, set on `node` (a node of the
 * campaign's frame): for the addresses the writer leaves to it, and the
 * measure the writer is held to.
 */
export function mimeNodeHead(node: MimeNode, fields: RecipientHeadFields): RecipientHead {
  node
    .setHeader('To', fields.to)
    .setHeader('Subject', fields.subject)
    .setHeader('Message-ID', fields.messageId)
    .setHeader('List-Unsubscribe', `<${fields.listUnsubscribeUrl}>`)
    .setHeader('Date', fields.date);
  return { text: node.buildHeaders(), to: node.getEnvelope().to };
}
