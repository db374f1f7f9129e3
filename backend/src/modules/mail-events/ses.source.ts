import { createPublicKey, verify as verifySignature, type KeyObject } from 'node:crypto';
import { get } from 'node:https';
import type { MailEventKind } from '@agency/contracts';
import type { MailEventInput } from '@agency/platform';
import {
  MalformedEvents,
  dateOf,
  isRecord,
  jsonOf,
  textOf,
  type MailEventSource,
  type ParsedEvents,
  type WebhookRequest,
} from './mail-event-source';

export interface SesOptions {
  /** The SNS topics whose messages are taken: anyone can sign SNS messages of their own topic. */
  topicArns: readonly string[];
  /** Hosts the signing certificate (and a subscription's confirm link) may come from; `*` is one label. */
  certificateHosts: readonly string[];
  /** Extra certificate authorities for those fetches (a test's own, on loopback). */
  certificateAuthorities?: readonly string[];
}

type SnsMessage = Record<string, unknown>;

/** The fields SNS signs, in the order it signs them, per message type. */
const SIGNED_FIELDS: Record<string, readonly string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
  UnsubscribeConfirmation: [
    'Message',
    'MessageId',
    'SubscribeURL',
    'Timestamp',
    'Token',
    'TopicArn',
    'Type',
  ],
};

function stringToSign(message: SnsMessage): string | undefined {
  const type = message.Type;
  // A text, and an own key only: a Type of `constructor` or `__proto__` names
  // no message type, and turning a nested array into text exhausts the stack.
  const fields =
    typeof type === 'string' && Object.hasOwn(SIGNED_FIELDS, type)
      ? SIGNED_FIELDS[type]
      : undefined;
  if (!fields) return undefined;
  let text = '';
  for (const field of fields) {
    const value = message[field];
    if (value === undefined && field === 'Subject') continue;
    if (typeof value !== 'string') return undefined;
    text += `${field}\n${value}\n`;
  }
  return text;
}

function hostPattern(entry: string): RegExp {
  const escaped = entry
    .trim()
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[a-z0-9-]+');
  return new RegExp(`^${escaped}$`);
}

/** An https address on an allowed host, or undefined. */
function allowedUrl(raw: unknown, hosts: readonly RegExp[]): URL | undefined {
  if (typeof raw !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return undefined;
  return hosts.some((host) => host.test(url.host.toLowerCase())) ? url : undefined;
}

/** SNS's timestamps: ISO 8601 in UTC, as `2026-01-05T10:00:00.000Z`. */
const SNS_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** The longest SNS retries one message to an HTTPS endpoint (a limit AWS does not raise). */
const SNS_RETRY_SECONDS = 3600;

const MAX_CERTIFICATE_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5000;

function fetchText(url: URL, ca: readonly string[] | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { timeout: FETCH_TIMEOUT_MS, ...(ca ? { ca: [...ca] } : {}) },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`${url.host} answered ${res.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_CERTIFICATE_BYTES) request.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/**
 * Amazon SES notifications through SNS. The message is verified as AWS
 * documents: the signing certificate is fetched (https, from an allowed
 * host, cached) and the signature checked over the canonical fields
 * (SHA1withRSA for SignatureVersion 1, SHA256withRSA for 2); the topic must
 * be one of ours. A subscription confirmation is answered by visiting its
 * SubscribeURL, on an allowed host too.
 */
export function sesSource(options: SesOptions): MailEventSource {
  const hosts = options.certificateHosts.map(hostPattern);
  const topics = new Set(options.topicArns);
  const certificates = new Map<string, Promise<KeyObject>>();

  const certificateAt = (url: URL): Promise<KeyObject> => {
    let key = certificates.get(url.href);
    if (!key) {
      key = fetchText(url, options.certificateAuthorities).then((pem) => createPublicKey(pem));
      key.catch(() => certificates.delete(url.href));
      if (certificates.size > 50) certificates.clear();
      certificates.set(url.href, key);
    }
    return key;
  };

  const messageOf = (request: WebhookRequest): SnsMessage => {
    const message = jsonOf(request);
    if (!isRecord(message)) throw new MalformedEvents('Not an SNS message');
    return message;
  };

  return {
    async verify(request) {
      let message: SnsMessage;
      try {
        message = messageOf(request);
      } catch {
        return false;
      }
      const topic = textOf(message.TopicArn);
      if (!topic || !topics.has(topic)) return false;
      const text = stringToSign(message);
      const signature = textOf(message.Signature);
      const certificateUrl = allowedUrl(message.SigningCertURL, hosts);
      const algorithm =
        message.SignatureVersion === '1'
          ? 'sha1'
          : message.SignatureVersion === '2'
            ? 'sha256'
            : '';
      if (!text || !signature || !certificateUrl || !algorithm) return false;
      try {
        const key = await certificateAt(certificateUrl);
        return verifySignature(algorithm, Buffer.from(text), key, Buffer.from(signature, 'base64'));
      } catch {
        return false;
      }
    },
    // SNS signs the time it published the message and resends that same
    // message for up to an hour (its hard limit for HTTPS delivery retries).
    signedAt(request) {
      const at: unknown = messageOf(request).Timestamp;
      const ms = typeof at === 'string' && SNS_TIMESTAMP.test(at) ? Date.parse(at) : Number.NaN;
      return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
    },
    retrySeconds: SNS_RETRY_SECONDS,
    async parse(request): Promise<ParsedEvents> {
      const message = messageOf(request);
      if (message.Type === 'SubscriptionConfirmation') {
        const subscribe = allowedUrl(message.SubscribeURL, hosts);
        if (!subscribe) throw new MalformedEvents('SubscribeURL is not on an allowed host');
        await fetchText(subscribe, options.certificateAuthorities);
        return { events: [], ignored: 1 };
      }
      if (message.Type !== 'Notification') return { events: [], ignored: 1 };
      let notification: unknown;
      try {
        notification = JSON.parse(String(message.Message));
      } catch {
        return { events: [], ignored: 1 };
      }
      return sesEvents(notification);
    },
  };
}

function headerValues(mail: Record<string, unknown>, name: string): string[] {
  const headers = Array.isArray(mail.headers) ? mail.headers : [];
  return headers.flatMap((entry) =>
    isRecord(entry) && textOf(entry.name)?.toLowerCase() === name && typeof entry.value === 'string'
      ? [entry.value]
      : [],
  );
}

/** A bounce or complaint notification (or configuration-set event) of SES, one event per recipient. */
export function sesEvents(notification: unknown): ParsedEvents {
  if (!isRecord(notification)) return { events: [], ignored: 1 };
  const type = notification.notificationType ?? notification.eventType;
  const mail = isRecord(notification.mail) ? notification.mail : {};
  const common = isRecord(mail.commonHeaders) ? mail.commonHeaders : {};
  const messageIds = [textOf(common.messageId), ...headerValues(mail, 'message-id')].filter(
    (value): value is string => !!value,
  );
  const returnPaths = [textOf(mail.source), ...headerValues(mail, 'return-path')].filter(
    (value): value is string => !!value,
  );
  const recipientsOf = (
    section: Record<string, unknown>,
    field: string,
    kind: MailEventKind,
    id: string,
  ): ParsedEvents => {
    const recipients = Array.isArray(section[field]) ? (section[field] as unknown[]) : [];
    const at = dateOf(section.timestamp);
    const events = recipients.flatMap((recipient): MailEventInput[] => {
      const email = isRecord(recipient) ? textOf(recipient.emailAddress) : undefined;
      if (!email) return [];
      const detail = isRecord(recipient) ? textOf(recipient.diagnosticCode) : undefined;
      return [
        {
          provider: 'ses',
          // One notification names several recipients: one event each.
          eventId: `${id}:${email.toLowerCase()}`,
          kind,
          email,
          messageIds,
          returnPaths,
          ...(detail ? { detail } : {}),
          ...(at ? { at } : {}),
        },
      ];
    });
    return { events, ignored: 0 };
  };
  if (type === 'Bounce' && isRecord(notification.bounce)) {
    const bounce = notification.bounce;
    const id = textOf(bounce.feedbackId) ?? textOf(mail.messageId);
    if (!id) throw new MalformedEvents('An SES bounce needs its feedbackId');
    const kind = bounce.bounceType === 'Permanent' ? 'hard-bounce' : 'soft-bounce';
    return recipientsOf(bounce, 'bouncedRecipients', kind, id);
  }
  if (type === 'Complaint' && isRecord(notification.complaint)) {
    const complaint = notification.complaint;
    const id = textOf(complaint.feedbackId) ?? textOf(mail.messageId);
    if (!id) throw new MalformedEvents('An SES complaint needs its feedbackId');
    return recipientsOf(complaint, 'complainedRecipients', 'complaint', id);
  }
  return { events: [], ignored: 1 };
}
