import { ValidationError } from 'yup';
import { genericMailEventsSchema, type MailEventKind } from '@agency/contracts';
import type { MailEventInput } from '@agency/platform';
import { MalformedEvents, dateOf, header, jsonOf, type MailEventSource } from './mail-event-source';
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
      const events: MailEventInput[] = [];
      let ignored = 0;
      for (const event of body.events) {
        const kind: MailEventKind | undefined =
          event.type === 'complaint'
            ? 'complaint'
            : event.type === 'bounce'
              ? event.bounceType === 'soft'
                ? 'soft-bounce'
                : 'hard-bounce'
              : undefined;
        if (!kind) {
          ignored += 1;
          continue;
        }
        events.push({
          provider: 'generic',
          eventId: event.id,
          kind,
          email: event.email,
          messageIds: event.messageId ? [event.messageId] : [],
          returnPaths: event.returnPath ? [event.returnPath] : [],
          ...(event.reason ? { detail: event.reason } : {}),
          ...(dateOf(event.at) ? { at: dateOf(event.at) } : {}),
        });
      }
      return { events, ignored };
    },
  };
}
