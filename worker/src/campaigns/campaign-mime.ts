import { randomBytes } from 'node:crypto';
import MimeNode from 'nodemailer/lib/mime-node';
import { encode as encodeQuotedPrintable, wrap as wrapQuotedPrintable } from 'nodemailer/lib/qp';
import type { Locale } from '@agency/contracts';
import type { CompiledCampaignMail, Personalisation } from '../mail/templates/campaign.template';

/** What changes from one recipient of a campaign to the next. */
export interface RecipientParts {
  to: string;
  values: Personalisation;
  /** The footer's link: the site's page with the unsubscribe button. */
  unsubscribePageUrl: string;
  /** The List-Unsubscribe header's address (RFC 8058 one-click). */
  listUnsubscribeUrl: string;
  messageId: string;
}

/** A whole RFC 5322 message and the SMTP envelope it goes out with. */
export interface RawCampaignMessage {
  envelope: { from: string; to: string[] };
  raw: string;
}

export interface CampaignMime {
  build(parts: RecipientParts): RawCampaignMessage;
}

const CRLF = '\r\n';

/** A body part as Nodemailer encodes it: CRLF line ends, 76-column quoted-printable. */
function quotedPrintable(content: string): string {
  return wrapQuotedPrintable(encodeQuotedPrintable(content.replace(/\r?\n/g, CRLF)), 76);
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
 * its alternatives' headers and the sender's address as the envelope wants
 * it. Each recipient's message is then the headers that name them (encoded
 * by Nodemailer's MimeNode, as `sendMail` would) and the two bodies, encoded
 * and joined into the frame: no per-message streams or message trees, and
 * the message goes out raw through the pooled connections.
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

  return {
    build(parts) {
      const rendered = mail.render(locale, parts.values, parts.unsubscribePageUrl);
      // Its own boundary is never used (the frame's is); given one, it draws no random bytes.
      const head = new MimeNode(contentType, { baseBoundary })
        .setHeader('From', from)
        .setHeader('To', parts.to)
        .setHeader('Subject', rendered.subject)
        .setHeader('Message-ID', parts.messageId)
        .setHeader('List-Unsubscribe', `<${parts.listUnsubscribeUrl}>`)
        .setHeader('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click');
      const raw = [
        head.buildHeaders(),
        '',
        `--${boundary}`,
        textHeaders,
        '',
        quotedPrintable(rendered.text),
        `--${boundary}`,
        htmlHeaders,
        '',
        quotedPrintable(rendered.html),
        `--${boundary}--`,
        '',
      ].join(CRLF);
      const envelope = head.getEnvelope();
      if (!envelope.from) throw new Error(`MAIL_FROM has no address: ${from}`);
      return { envelope: { from: envelope.from, to: envelope.to }, raw };
    },
  };
}
