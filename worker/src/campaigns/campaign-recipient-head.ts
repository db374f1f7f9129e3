import { foldLines, headerValueEncoder, type MimeNode } from './nodemailer-internals';

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

/** A header's line as MimeNode folds it (at 76 characters, at white space only). */
const headerLine = (key: string, value: string) => foldLines(`${key}: ${value}`, 76);

/**
 * A campaign mail's recipient headers, written as Nodemailer's MimeNode
 * writes them (To, Subject, Message-ID, List-Unsubscribe, Date, in that
 * order) but without building a node per mail: setting five headers on a
 * node, its `buildHeaders` and its `getEnvelope`, which parses the address
 * twice, were about a tenth of the workers' CPU per mail (docs/benchmarks.md,
 * bench:mail). Each value is still encoded by MimeNode's own encoder; only
 * a plain address (`PLAIN_MAILBOX`) is written without its address parser.
 * Answers undefined for any other address: the caller then builds the node,
 * as before. `campaign-recipient-head.test.ts` holds both to the same bytes.
 */
export function recipientHeadWriter(): (fields: RecipientHeadFields) => RecipientHead | undefined {
  const encode = headerValueEncoder();
  return ({ to, subject, messageId, listUnsubscribeUrl, date }) => {
    if (!PLAIN_MAILBOX.test(to)) return undefined;
    const lines = [headerLine('To', to)];
    const encodedSubject = encode('Subject', subject);
    // MimeNode leaves out a header whose value is blank.
    if (encodedSubject.trim()) lines.push(headerLine('Subject', encodedSubject));
    lines.push(
      headerLine('Message-ID', encode('Message-ID', messageId)),
      headerLine('List-Unsubscribe', encode('List-Unsubscribe', `<${listUnsubscribeUrl}>`)),
      headerLine('Date', encode('Date', date)),
    );
    return { text: lines.join('\r\n'), to: [to] };
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
