import {
  MalformedEvents,
  eventAt,
  header,
  isRecord,
  jsonOf,
  mailEventKind,
  textOf,
  textsOf,
  type MailEventSource,
} from './mail-event-source';
import { sameSecret } from './signatures';

/** Postmark's bounce types that say the address will never take mail. */
const HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'SpamNotification']);
/** Those that may pass: counted, and three in 30 days suppress. */
const SOFT = new Set(['SoftBounce', 'Transient', 'DnsError', 'Blocked', 'MailFrontier']);

/**
 * Postmark signs nothing: its webhook URL carries basic-auth credentials
 * (`https://user:password@.../postmark`), checked here.
 */
export function postmarkSource(credentials: {
  username: string;
  password: string;
}): MailEventSource {
  return {
    verify(request) {
      const authorization = header(request, 'authorization') ?? '';
      const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization);
      if (!match) return false;
      const given = Buffer.from(match[1] as string, 'base64').toString('utf8');
      return sameSecret(given, `${credentials.username}:${credentials.password}`);
    },
    parse(request) {
      const body = jsonOf(request);
      if (!isRecord(body) || !textOf(body.RecordType)) {
        throw new MalformedEvents('Not a Postmark webhook record');
      }
      const type = textOf(body.Type) ?? '';
      const kind = mailEventKind({
        complaint: body.RecordType === 'SpamComplaint',
        hardBounce: body.RecordType === 'Bounce' && HARD.has(type),
        softBounce: body.RecordType === 'Bounce' && SOFT.has(type),
      });
      const email = textOf(body.Email);
      const id = body.ID;
      if (!kind) return { events: [], ignored: 1 };
      if (!email || (typeof id !== 'number' && typeof id !== 'string')) {
        throw new MalformedEvents('A Postmark bounce needs ID and Email');
      }
      // Postmark puts its own Message-ID on the mail; ours is found in the
      // bounce's dump of the original message, or in the metadata.
      const metadata = isRecord(body.Metadata) ? Object.values(body.Metadata) : [];
      const texts = [body.Content, body.Details, ...metadata].flatMap((value) =>
        typeof value === 'string' ? [value] : [],
      );
      const event = eventAt(
        {
          provider: 'postmark',
          eventId: `${String(body.RecordType)}-${String(id)}`,
          kind,
          email,
          messageIds: texts,
          returnPaths: texts,
          detail: textsOf(body.Description, body.Details).join(' '),
        },
        body.BouncedAt,
      );
      return { events: [event], ignored: 0 };
    },
  };
}
