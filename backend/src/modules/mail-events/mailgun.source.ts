import {
  MalformedEvents,
  eventAt,
  isRecord,
  jsonOf,
  mailEventKind,
  textOf,
  textsOf,
  type MailEventSource,
} from './mail-event-source';
import { hmacHex, sameSecret } from './signatures';

/**
 * Mailgun signs each webhook in its body: `signature.signature` is the hex
 * HMAC-SHA256 of `timestamp + token` with the webhook signing key.
 */
export function mailgunSource(signingKey: string): MailEventSource {
  return {
    verify(request) {
      let body: unknown;
      try {
        body = jsonOf(request);
      } catch {
        return false;
      }
      const signature = isRecord(body) && isRecord(body.signature) ? body.signature : undefined;
      const timestamp = textOf(signature?.timestamp);
      const token = textOf(signature?.token);
      const given = textOf(signature?.signature);
      if (!timestamp || !token || !given) return false;
      return sameSecret(given.toLowerCase(), hmacHex(signingKey, `${timestamp}${token}`));
    },
    parse(request) {
      const body = jsonOf(request);
      const data = isRecord(body) && isRecord(body['event-data']) ? body['event-data'] : undefined;
      if (!data || !textOf(data.event)) throw new MalformedEvents('Not a Mailgun webhook');
      const kind = mailEventKind({
        complaint: data.event === 'complained',
        hardBounce: data.event === 'failed' && data.severity === 'permanent',
        softBounce: data.event === 'failed' && data.severity !== 'permanent',
      });
      if (!kind) return { events: [], ignored: 1 };
      const email = textOf(data.recipient);
      const id = textOf(data.id);
      if (!email || !id) throw new MalformedEvents('A Mailgun event needs id and recipient');
      const message = isRecord(data.message) ? data.message : {};
      const headers = isRecord(message.headers) ? message.headers : {};
      const envelope = isRecord(data.envelope) ? data.envelope : {};
      const status = isRecord(data['delivery-status']) ? data['delivery-status'] : {};
      const event = eventAt(
        {
          provider: 'mailgun',
          eventId: id,
          kind,
          email,
          messageIds: textsOf(headers['message-id']),
          returnPaths: textsOf(envelope.sender),
          detail: textsOf(status.message, status.description).join(' '),
        },
        data.timestamp,
      );
      return { events: [event], ignored: 0 };
    },
  };
}
