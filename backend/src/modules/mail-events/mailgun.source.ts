import {
  MalformedEvents,
  eventAt,
  isRecord,
  jsonOf,
  mailEventKind,
  textOf,
  textsOf,
  unixSecondsOf,
  type MailEventSource,
  type WebhookRequest,
} from './mail-event-source';
import { hmacHex, sameSecret } from './signatures';

/** The body's `signature` block, or nothing when the body is not JSON. */
function signatureOf(request: WebhookRequest): {
  timestamp?: string;
  token?: string;
  signature?: string;
} {
  let body: unknown;
  try {
    body = jsonOf(request);
  } catch {
    return {};
  }
  const block = isRecord(body) && isRecord(body.signature) ? body.signature : {};
  return {
    timestamp: textOf(block.timestamp),
    token: textOf(block.token),
    signature: textOf(block.signature),
  };
}

/**
 * Mailgun signs each webhook in its body: `signature.signature` is the hex
 * HMAC-SHA256 of `timestamp + token` with the webhook signing key. That
 * covers no event: the token is what makes one signature one delivery, so
 * each token is taken once (and the timestamp must be fresh).
 */
export function mailgunSource(signingKey: string): MailEventSource {
  return {
    verify(request) {
      const { timestamp, token, signature } = signatureOf(request);
      if (!timestamp || !token || !signature) return false;
      return sameSecret(signature.toLowerCase(), hmacHex(signingKey, `${timestamp}${token}`));
    },
    signedAt: (request) => unixSecondsOf(signatureOf(request).timestamp),
    onceToken: (request) => signatureOf(request).token,
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
