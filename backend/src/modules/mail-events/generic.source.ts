import { ValidationError } from 'yup';
import { genericMailEventsSchema } from '@agency/contracts';
import {
  MalformedEvents,
  eventAt,
  eventsOf,
  header,
  jsonOf,
  mailEventKind,
  textsOf,
  type MailEventSource,
} from './mail-event-source';
import { hmacHex, sameSecret } from './signatures';

export const GENERIC_SIGNATURE_HEADER = 'x-mail-events-signature';

/**
 * Any other relay: `X-Mail-Events-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>" with the shared secret>`, body `{ "events": [...] }`.
 */
export function genericSource(secret: string): MailEventSource {
  return {
    verify(request) {
      const signature = header(request, GENERIC_SIGNATURE_HEADER) ?? '';
      const parts = Object.fromEntries(
        signature.split(',').map((part) => {
          const at = part.indexOf('=');
          return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
        }),
      );
      const { t, v1 } = parts as { t?: string; v1?: string };
      if (!t || !v1 || !/^\d{1,12}$/.test(t)) return false;
      const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), request.rawBody]));
      return sameSecret(v1.toLowerCase(), expected);
    },
    async parse(request) {
      let body;
      try {
        body = await genericMailEventsSchema.validate(jsonOf(request), { stripUnknown: true });
      } catch (error) {
        if (error instanceof ValidationError) throw new MalformedEvents(error.message);
        throw error;
      }
      return eventsOf(body.events, (event) => {
        const kind = mailEventKind({
          complaint: event.type === 'complaint',
          hardBounce: event.type === 'bounce' && event.bounceType !== 'soft',
          softBounce: event.type === 'bounce' && event.bounceType === 'soft',
        });
        if (!kind) return undefined;
        return eventAt(
          {
            provider: 'generic',
            eventId: event.id,
            kind,
            email: event.email,
            messageIds: textsOf(event.messageId),
            returnPaths: textsOf(event.returnPath),
            ...(event.reason ? { detail: event.reason } : {}),
          },
          event.at,
        );
      });
    },
  };
}
