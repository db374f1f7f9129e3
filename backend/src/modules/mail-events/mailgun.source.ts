import type { MailEventKind } from '@agency/contracts';
import type { MailEventInput } from '@agency/platform';
import {
  MalformedEvents,
  dateOf,
  isRecord,
  jsonOf,
  textOf,
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
      const kind: MailEventKind | undefined =
        data.event === 'complained'
          ? 'complaint'
          : data.event === 'failed'
            ? data.severity === 'permanent'
              ? 'hard-bounce'
              : 'soft-bounce'
            : undefined;
      if (!kind) return { events: [], ignored: 1 };
      const email = textOf(data.recipient);
      const id = textOf(data.id);
      if (!email || !id) throw new MalformedEvents('A Mailgun event needs id and recipient');
      const message = isRecord(data.message) ? data.message : {};
      const headers = isRecord(message.headers) ? message.headers : {};
      const envelope = isRecord(data.envelope) ? data.envelope : {};
      const status = isRecord(data['delivery-status']) ? data['delivery-status'] : {};
      const event: MailEventInput = {
        provider: 'mailgun',
        eventId: id,
        kind,
        email,
        messageIds: [textOf(headers['message-id'])].filter((value): value is string => !!value),
        returnPaths: [textOf(envelope.sender)].filter((value): value is string => !!value),
        detail: [textOf(status.message), textOf(status.description)].filter(Boolean).join(' '),
      };
      const at = dateOf(data.timestamp);
      return { events: [at ? { ...event, at } : event], ignored: 0 };
    },
  };
}
