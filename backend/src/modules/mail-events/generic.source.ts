import { ValidationError } from 'yup';
import { genericMailEventsSchema, type GenericMailEvents } from '@agency/contracts';
import { fieldReasons, withoutPrototypeKeys } from '../../middleware/validate';
import {
  MalformedEvents,
  eventAt,
  eventsOf,
  header,
  jsonOf,
  mailEventKind,
  textsOf,
  unixSecondsOf,
  type MailEventSource,
  type WebhookRequest,
} from './mail-event-source';
import { hmacHex, sameSecret } from './signatures';

export const GENERIC_SIGNATURE_HEADER = 'x-mail-events-signature';

/** The parts of `X-Mail-Events-Signature: t=...,v1=...`. */
function signatureOf(request: WebhookRequest): { t?: string; v1?: string } {
  const signature = header(request, GENERIC_SIGNATURE_HEADER) ?? '';
  const parts = new Map(
    signature.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  return { t: parts.get('t'), v1: parts.get('v1') };
}

/**
 * The body read by the schema. Keys named like Object.prototype's members
 * (`constructor`, `__proto__`, `toString`) would be taken by yup for field
 * schemas and crash it, and deep nesting would exhaust the stack: both are
 * dealt with first, as for every other body the API validates.
 */
async function validEvents(request: WebhookRequest): Promise<GenericMailEvents> {
  const input = withoutPrototypeKeys(jsonOf(request));
  try {
    return await genericMailEventsSchema.validate(input, { abortEarly: false, stripUnknown: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fields = fieldReasons(error, request.locale);
    const reasons = Object.entries(fields).map(([field, reason]) => `${field}: ${reason}`);
    throw new MalformedEvents(`Some events are invalid (${reasons.join('; ')})`, fields);
  }
}

/**
 * Any other relay: `X-Mail-Events-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>" with the shared secret>`, body `{ "events": [...] }`.
 */
export function genericSource(secret: string): MailEventSource {
  return {
    verify(request) {
      const { t, v1 } = signatureOf(request);
      if (!t || !v1 || unixSecondsOf(t) === undefined) return false;
      const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), request.rawBody]));
      return sameSecret(v1.toLowerCase(), expected);
    },
    signedAt: (request) => unixSecondsOf(signatureOf(request).t),
    async parse(request) {
      const body = await validEvents(request);
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
