import { randomBytes } from 'node:crypto';
import { isDeliverableAddress, type Locale } from '@agency/contracts';
import {
  asIs,
  escapeHtml,
  slotReaderOf,
  type CompiledCampaignMail,
  type Personalisation,
  type Segments,
  type SlotValues,
  type TrackingUrls,
} from '@agency/platform';
import {
  mimeNodeHead,
  recipientHeadWriter,
  type RecipientHead,
  type RecipientHeadFields,
} from './campaign-recipient-head';
import { MimeNode } from './nodemailer-internals';
import { quotedPrintable, quotedPrintableValue } from './quoted-printable-value';

/** What changes from one recipient of a campaign to the next. */
export interface RecipientParts {
  to: string;
  values: Personalisation;
  /** The footer's link: the site's page with the unsubscribe button. */
  unsubscribePageUrl: string;
  /** The footer's "Manage your subscription" link: the preference page, in their language. */
  managePageUrl: string;
  /** The List-Unsubscribe header's address (RFC 8058 one-click). */
  listUnsubscribeUrl: string;
  messageId: string;
  /** The envelope sender when bounces go to a per-recipient address; MAIL_FROM's otherwise. */
  returnPath?: string;
  /** The recipient's tracking addresses, for a mail compiled with tracking. */
  tracking?: TrackingUrls;
}

/**
 * A whole RFC 5322 message, in order: the frame's parts, encoded once and
 * shared by every message of the frame (Buffers), and the recipient's own
 * (strings). `MessageRoom` lays them out for the wire.
 */
export type MessagePieces = readonly (Buffer | string)[];

/** A whole RFC 5322 message and the SMTP envelope it goes out with. */
export interface RawCampaignMessage {
  envelope: { from: string; to: string[] };
  pieces: MessagePieces;
}

/**
 * Room for one message at a time, reused from one message to the next: each
 * SMTP connection carries one message at a time and keeps one room. A 50 KB
 * newsletter then costs no new 100 KB string and Buffer per recipient, which
 * the worker's small young generation would otherwise collect again and again.
 */
export class MessageRoom {
  #buffer = Buffer.alloc(0);

  /** The message's bytes: a view of the room, which first grows if the message needs more. */
  layOut(pieces: MessagePieces): Buffer {
    let length = 0;
    for (const piece of pieces)
      // Stryker disable next-line ConditionalExpression: Buffer.byteLength of a Buffer is its length; the test only spares the call
      length += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    // A quarter more than needed: the next message, a few bytes longer, then
    // fits. Kept for long, so not a slice of Node's shared pool.
    // Stryker disable next-line EqualityOperator: growing a room that fits exactly lays the same bytes out
    if (length > this.#buffer.length) {
      this.#buffer = Buffer.allocUnsafeSlow(Math.ceil(length * 1.25));
    }
    let offset = 0;
    for (const piece of pieces) {
      offset +=
        typeof piece === 'string'
          ? this.#buffer.write(piece, offset)
          : piece.copy(this.#buffer, offset);
    }
    return this.#buffer.subarray(0, length);
  }

  /** Lets the room go: a message the server refused may still sit in a socket's queue. */
  clear(): void {
    this.#buffer = Buffer.alloc(0);
  }
}

/** An address that is not exactly one mailbox: nothing is sent to it. */
export class InvalidRecipientError extends Error {}

export interface CampaignMime {
  build(parts: RecipientParts): RawCampaignMessage;
}

const CRLF = '\r\n';

/** A quoted-printable line break that decodes to nothing (RFC 2045, 6.7 rule 5). */
const SOFT_LINE_BREAK = `=${CRLF}`;

/**
 * A body's quoted-printable encoding, its literal parts encoded once: each
 * mail encodes only its recipient's values, and the pieces are joined by soft
 * line breaks, so every piece starts a line of its own and decodes to exactly
 * the rendered body. A 50 KB newsletter is then not encoded again per mail:
 * its literal parts are shared Buffers, with the soft breaks around them.
 */
function encodedBody(segments: Segments, escape: (value: string) => string) {
  const last = segments.length - 1;
  const literals = segments.map((part, index) =>
    index % 2 === 0
      ? Buffer.from(
          (index > 0 ? SOFT_LINE_BREAK : '') +
            quotedPrintable(part) +
            (index < last ? SOFT_LINE_BREAK : ''),
        )
      : part,
  );
  // An empty piece (a placeholder at the very start, an empty first name)
  // costs one empty soft-broken line, which decodes to nothing. Each slot's
  // tag is read once, here: a mail only reads its recipient's values.
  const encoderOf = (tag: string) => {
    const read = slotReaderOf(tag);
    return (values: SlotValues) => quotedPrintableValue(escape(read(values)));
  };
  const tags = segments.filter((_, index) => index % 2 === 1);
  if (new Set(tags).size === tags.length) {
    const pieces = literals.map((part) => (typeof part === 'string' ? encoderOf(part) : part));
    return (values: SlotValues, out: (Buffer | string)[]): void => {
      for (const piece of pieces) out.push(Buffer.isBuffer(piece) ? piece : piece(values));
    };
  }
  // A slot met again (a tracked link repeated through a newsletter, a name
  // said twice) takes the same value in one mail: encoded once per mail, and
  // kept by the order its slot was first met in, in an array that each new
  // slot extends (a Map per mail, grown and rehashed as it filled, was a
  // tenth of what a mail with tracked links allocated).
  const order = new Map<string, number>();
  const parts = literals.map((part) => {
    if (typeof part !== 'string') return part;
    const first = order.get(part) ?? order.size;
    order.set(part, first);
    return { encode: encoderOf(part), first };
  });
  return (values: SlotValues, pieces: (Buffer | string)[]): void => {
    const encoded: string[] = [];
    for (const part of parts) {
      if (Buffer.isBuffer(part)) {
        pieces.push(part);
        continue;
      }
      let piece = encoded[part.first];
      if (piece === undefined) {
        piece = part.encode(values);
        encoded.push(piece);
      }
      pieces.push(piece);
    }
  };
}

/** The header block of one alternative (its Content-Type and transfer encoding), built once. */
function partHeaders(frame: MimeNode, contentType: string): string {
  return frame
    .createChild(contentType)
    .setHeader('Content-Transfer-Encoding', 'quoted-printable')
    .buildHeaders();
}

/**
 * The MIME frame of one campaign in one language, built once: its boundary,
 * its alternatives' headers, the bodies' literal parts already encoded and
 * the sender's address as the envelope wants it. Each recipient's message is
 * then the headers that name them (encoded by Nodemailer's MimeNode, as
 * `sendMail` would) and their own values encoded into the two bodies, laid
 * out around the frame's shared pieces: no per-message streams or message
 * trees, and the message goes out raw through the pooled connections.
 */
export function compileCampaignMime(
  mail: CompiledCampaignMail,
  locale: Locale,
  from: string,
  replyTo?: string,
): CampaignMime {
  const baseBoundary = randomBytes(12).toString('hex');
  const boundary = `--_campaign-${baseBoundary}`;
  const contentType = `multipart/alternative; boundary="${boundary}"`;
  // Every MimeNode below is a node of this frame, given its boundary: none
  // draws random bytes, and none but this one is a message's root, which
  // would add a Date, a Message-ID and a MIME-Version of its own.
  // Stryker disable next-line ObjectLiteral: the frame's own boundary is never written (its Content-Type names it); given, it draws no random bytes
  const frame = new MimeNode(contentType, { baseBoundary });
  const nodeOfFrame = () => new MimeNode(undefined, { rootNode: frame, baseBoundary });
  // The headers every message of the frame carries alike, encoded once.
  const sharedHead = nodeOfFrame().setHeader('From', from);
  // Replies reach a mailbox someone reads, even when the From is a no-reply address.
  if (replyTo) sharedHead.setHeader('Reply-To', replyTo);
  sharedHead
    .setHeader('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click')
    .setHeader('MIME-Version', '1.0')
    .setHeader('Content-Type', contentType);
  const envelopeFrom = sharedHead.getEnvelope().from;
  const textHeaders = partHeaders(frame, 'text/plain; charset=utf-8');
  const htmlHeaders = partHeaders(frame, 'text/html; charset=utf-8');
  const bodies = mail.frameOf(locale);
  const textBody = encodedBody(bodies.text, asIs);
  const htmlBody = encodedBody(bodies.html, escapeHtml);
  const frameText = (...lines: string[]) => Buffer.from(lines.join(CRLF));
  const beforeText = frameText(
    '',
    sharedHead.buildHeaders(),
    '',
    `--${boundary}`,
    textHeaders,
    '',
    '',
  );
  const beforeHtml = frameText('', `--${boundary}`, htmlHeaders, '', '');
  const closing = frameText('', `--${boundary}--`, '');
  const writeHead = recipientHeadWriter();
  // The recipient's own headers, as Nodemailer's `sendMail` would encode them.
  const headOf = (fields: RecipientHeadFields): RecipientHead =>
    writeHead(fields) ?? mimeNodeHead(nodeOfFrame(), fields);

  return {
    build(parts) {
      if (!envelopeFrom) throw new Error(`MAIL_FROM has no address: ${from}`);
      const values: SlotValues = {
        ...parts.values,
        unsubscribeUrl: parts.unsubscribePageUrl,
        manageUrl: parts.managePageUrl,
        tracking: parts.tracking,
      };
      const head = headOf({
        to: parts.to,
        subject: mail.subjectOf(locale, parts.values),
        messageId: parts.messageId,
        listUnsubscribeUrl: parts.listUnsubscribeUrl,
        date: new Date(),
      });
      // One mail, one mailbox: an address holding a line break or a list
      // would have the server deliver to others as well.
      if (head.to.length !== 1 || /[\r\n]/.test(parts.to)) {
        throw new InvalidRecipientError(`not a single mailbox: ${JSON.stringify(parts.to)}`);
      }
      // Forms and imports refuse such addresses now; one stored before they did must not go out.
      if (!isDeliverableAddress(parts.to)) {
        throw new InvalidRecipientError(`not a valid address: ${JSON.stringify(parts.to)}`);
      }
      // Checked first: a tracked body's values (the recipient's key) are made of the address.
      const pieces: (Buffer | string)[] = [head.text, beforeText];
      textBody(values, pieces);
      pieces.push(beforeHtml);
      htmlBody(values, pieces);
      pieces.push(closing);
      return { envelope: { from: parts.returnPath ?? envelopeFrom, to: head.to }, pieces };
    },
  };
}
