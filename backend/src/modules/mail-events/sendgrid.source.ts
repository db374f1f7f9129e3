import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import {
  MalformedEvents,
  eventAt,
  eventsOf,
  header,
  isRecord,
  jsonOf,
  mailEventKind,
  textOf,
  textsOf,
  unixSecondsOf,
  type MailEventSource,
} from './mail-event-source';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** The verification key as SendGrid shows it (base64 DER), or as PEM. */
export function sendgridPublicKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  return createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
}

/**
 * SendGrid's signed event webhook: an ECDSA (P-256, SHA-256) signature of
 * the timestamp header followed by the raw body.
 */
export function sendgridSource(publicKey: KeyObject): MailEventSource {
  return {
    verify(request) {
      const signature = header(request, SENDGRID_SIGNATURE_HEADER);
      const timestamp = header(request, SENDGRID_TIMESTAMP_HEADER);
      if (!signature || !timestamp) return false;
      try {
        return verify(
          'sha256',
          Buffer.concat([Buffer.from(timestamp), request.rawBody]),
          publicKey,
          Buffer.from(signature, 'base64'),
        );
      } catch {
        return false;
      }
    },
    signedAt: (request) => unixSecondsOf(header(request, SENDGRID_TIMESTAMP_HEADER)),
    parse(request) {
      const body = jsonOf(request);
      if (!Array.isArray(body)) throw new MalformedEvents('SendGrid posts an array of events');
      return eventsOf(body, (item) => {
        if (!isRecord(item)) throw new MalformedEvents('An event is not an object');
        const kind = mailEventKind({
          complaint: item.event === 'spamreport',
          hardBounce: item.event === 'bounce' && item.type !== 'blocked',
          softBounce: item.event === 'bounce' && item.type === 'blocked',
        });
        if (!kind) return undefined;
        const email = textOf(item.email);
        const id = textOf(item.sg_event_id);
        if (!email || !id) {
          throw new MalformedEvents('A SendGrid event needs sg_event_id and email');
        }
        return eventAt(
          {
            provider: 'sendgrid',
            eventId: id,
            kind,
            email,
            messageIds: textsOf(item['smtp-id']),
            detail: textsOf(item.status, item.reason).join(' '),
          },
          item.timestamp,
        );
      });
    },
  };
}
