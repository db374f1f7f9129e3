import { randomBytes } from 'node:crypto';
import type { Locale } from '@agency/contracts';
import {
  asIs,
  escapeHtml,
  slotValue,
  type CompiledCampaignMail,
  type Personalisation,
  type Segments,
  type SlotValues,
} from '@agency/platform';
import { MimeNode, encodeQuotedPrintable, wrapQuotedPrintable } from './nodemailer-internals';

/** What changes from one recipient of a campaign to the next. */
export interface RecipientParts {
  to: string;
  values: Personalisation;
  /** The footer's link: the site's page with the unsubscribe button. */
  unsubscribePageUrl: string;
  /** The List-Unsubscribe header's address (RFC 8058 one-click). */
  listUnsubscribeUrl: string;
  messageId: string;
  /** The envelope sender when bounces go to a per-recipient address; MAIL_FROM's otherwise. */
  returnPath?: string;
}

/** A whole RFC 5322 message and the SMTP envelope it goes out with. */
export interface RawCampaignMessage {
  envelope: { from: string; to: string[] };
  raw: string;
}

/** An address that is not exactly one mailbox: nothing is sent to it. */
export class InvalidRecipientError extends Error {}

export interface CampaignMime {
  build(parts: RecipientParts): RawCampaignMessage;
}

const CRLF = '\r\n';

/** A body part as Nodemailer encodes it: CRLF line ends, 76-column quoted-printable. */
function quotedPrintable(content: string): string {
  return wrapQuotedPrintable(encodeQuotedPrintable(content.replace(/\r?\n/g, CRLF)), 76);
}

/** A quoted-printable line break that decodes to nothing (RFC 2045, 6.7 rule 5). */
const SOFT_LINE_BREAK = `=${CRLF}`;

/**
 * A body's quoted-printable encoding, its literal parts encoded once: each
 * mail encodes only its recipient's values, and the pieces are joined by soft
 * line breaks, so every piece starts a line of its own and decodes to exactly
 * the rendered body. A 50 KB newsletter is then not encoded again per mail.
 */
function encodedBody(segments: Segments, escape: (value: string) => string) {
  // Stryker disable next-line ConditionalExpression: a slot's tag (firstName, link-email…) is plain ASCII, which quoted-printable leaves as it is
  const encoded = segments.map((part, index) => (index % 2 === 0 ? quotedPrintable(part) : part));
  return (values: SlotValues): string => {
    // An empty piece (a placeholder at the very start, an empty first name)
    // costs one empty soft-broken line, which decodes to nothing.
    return encoded
      .map((part, index) =>
        index % 2 === 0 ? part : quotedPrintable(escape(slotValue(part, values))),
      )
      .join(SOFT_LINE_BREAK);
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
 * `sendMail` would) and their own values encoded into the two bodies: no
 * per-message streams or message trees, and the message goes out raw through
 * the pooled connections.
 */
export function compileCampaignMime(
  mail: CompiledCampaignMail,
  locale: Locale,
  from: string,
): CampaignMime {
  const baseBoundary = randomBytes(12).toString('hex');
  const boundary = `--_campaign-${baseBoundary}`;
  const contentType = `multipart/alternative; boundary="${boundary}"`;
  const frame = new MimeNode(contentType);
  const textHeaders = partHeaders(frame, 'text/plain; charset=utf-8');
  const htmlHeaders = partHeaders(frame, 'text/html; charset=utf-8');
  const bodies = mail.frameOf(locale);
  const textBody = encodedBody(bodies.text, asIs);
  const htmlBody = encodedBody(bodies.html, escapeHtml);

  return {
    build(parts) {
      const values = { ...parts.values, unsubscribeUrl: parts.unsubscribePageUrl };
      // Its own boundary is never used (the frame's is); given one, it draws no random bytes.
      // Stryker disable next-line ObjectLiteral: the boundary given only spares random bytes, the message is the same
      const head = new MimeNode(contentType, { baseBoundary })
        .setHeader('From', from)
        .setHeader('To', parts.to)
        .setHeader('Subject', mail.subjectOf(locale, parts.values))
        .setHeader('Message-ID', parts.messageId)
        .setHeader('List-Unsubscribe', `<${parts.listUnsubscribeUrl}>`)
        .setHeader('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
      const raw = [
        head.buildHeaders(),
        '',
        `--${boundary}`,
        textHeaders,
        '',
        textBody(values),
        `--${boundary}`,
        htmlHeaders,
        '',
        htmlBody(values),
        `--${boundary}--`,
        '',
      ].join(CRLF);
      const envelope = head.getEnvelope();
      if (!envelope.from) throw new Error(`MAIL_FROM has no address: ${from}`);
      // One mail, one mailbox: an address holding a line break or a list
      // would have the server deliver to others as well.
      if (envelope.to.length !== 1 || /[\r\n]/.test(parts.to)) {
        throw new InvalidRecipientError(`not a single mailbox: ${JSON.stringify(parts.to)}`);
      }
      return { envelope: { from: parts.returnPath ?? envelope.from, to: envelope.to }, raw };
    },
  };
}
