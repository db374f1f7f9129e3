import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type Attachment, type ParsedMail } from 'mailparser';
import type { MailEventKind } from '@agency/contracts';
import type { MailEventInput } from '@agency/platform';

/**
 * What one message of the bounce mailbox turned out to be: a delivery status
 * notification (RFC 3464) and the bounces it reports, a message of another
 * kind (an auto-reply, a read receipt, spam), or a report too broken to read.
 */
export type DsnReading =
  | { kind: 'report'; events: MailEventInput[] }
  | { kind: 'not-a-report' }
  | { kind: 'malformed'; reason: string };

/** The status parts of RFC 3464 and of its UTF-8 extension (RFC 6533). */
const STATUS_TYPES = ['message/delivery-status', 'message/global-delivery-status'];
/** Where a report quotes the mail it answers: whole, or its header alone. */
const ORIGINAL_TYPES = [
  'message/rfc822',
  'message/global',
  'text/rfc822-headers',
  'message/global-headers',
];

type Fields = Map<string, unknown>;

function textOf(fields: Fields, name: string): string | undefined {
  const value = fields.get(name);
  const text = typeof value === 'string' ? value : undefined;
  return text?.trim() || undefined;
}

/** Addresses in a header that mailparser read as addresses (To, Return-Path, ...) or left as text. */
function addressesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value.trim()].filter(Boolean);
  const objects = (Array.isArray(value) ? value : [value]) as (AddressObject | undefined)[];
  return objects.flatMap((object) =>
    (object?.value ?? []).flatMap((entry) => (entry.address ? [entry.address] : [])),
  );
}

function messageIdsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((id): id is string => typeof id === 'string');
  return [];
}

/**
 * `rfc822; Someone@Example.tn` -> `Someone@Example.tn`. Only Internet
 * addresses name a recipient of ours (`utf-8` is RFC 6533's form of them).
 */
function recipientOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const at = field.indexOf(';');
  const type = at < 0 ? 'rfc822' : field.slice(0, at).trim().toLowerCase();
  if (type !== 'rfc822' && type !== 'utf-8') return undefined;
  const address = (at < 0 ? field : field.slice(at + 1)).trim().replace(/^<(.*)>$/, '$1');
  // 254 characters is the longest address SMTP carries.
  return address.length <= 254 && /^[^\s@<>]+@[^\s@<>]+$/.test(address) ? address : undefined;
}

/**
 * Failed with a 4.x.x status, or delayed: the server may take the mail
 * later, so the address is only counted. Failed otherwise is permanent. The
 * other actions (delivered, relayed, expanded) report success.
 */
function kindOf(action: string | undefined, status: string | undefined): MailEventKind | undefined {
  const verb = action?.toLowerCase().split(/\s/)[0];
  if (verb === 'delayed') return 'soft-bounce';
  if (verb !== 'failed') return undefined;
  return status?.startsWith('4') ? 'soft-bounce' : 'hard-bounce';
}

/** The diagnostic without its type (`smtp; 550 ...` -> `550 ...`), else the status code. */
function detailOf(fields: Fields): string | undefined {
  const diagnostic = textOf(fields, 'diagnostic-code');
  if (diagnostic) return diagnostic.replace(/^[\w-]+\s*;\s*/, '');
  const status = textOf(fields, 'status');
  return status ? `Status ${status}` : undefined;
}

/**
 * The status part is a block of per-message fields, then one block per
 * recipient, each a header block (folded lines included): each is read by
 * the same parser as the mail's own header.
 */
async function statusBlocks(part: Attachment): Promise<Fields[]> {
  const blocks = part.content
    .toString('utf8')
    .split(/\r?\n(?:[ \t]*\r?\n)+/)
    .map((block) => block.trim())
    .filter(Boolean);
  return Promise.all(blocks.map(async (block) => (await simpleParser(`${block}\r\n\r\n`)).headers));
}

/** The quoted original: its Message-ID and its envelope sender, if the report kept them. */
async function originalOf(
  mail: ParsedMail,
): Promise<{ messageIds: string[]; returnPaths: string[] }> {
  const part = mail.attachments.find(({ contentType }) => ORIGINAL_TYPES.includes(contentType));
  if (!part) return { messageIds: [], returnPaths: [] };
  const original = await simpleParser(part.content);
  return {
    messageIds: original.messageId ? [original.messageId] : [],
    returnPaths: addressesOf(original.headers.get('return-path')),
  };
}

/**
 * Reads one raw message. A report names the mail it answers by the
 * quoted original's Message-ID, or (when the quote is missing) by the
 * address it was sent back to, the per-recipient return path: the mail
 * server that delivered it writes that in X-Original-To or Delivered-To, and
 * most reports are addressed to it. Each recipient's event is identified by
 * the report's own Message-ID and the recipient, so reading the same report
 * again records nothing new.
 */
export async function readDsn(raw: Buffer): Promise<DsnReading> {
  try {
    return await readMessage(raw);
  } catch (error) {
    return { kind: 'malformed', reason: `unreadable message: ${(error as Error).message}` };
  }
}

async function readMessage(raw: Buffer): Promise<DsnReading> {
  const mail = await simpleParser(raw, { keepDeliveryStatus: true });
  const type = mail.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const declared =
    type?.value?.toLowerCase() === 'multipart/report' &&
    /^(global-)?delivery-status$/i.test(type.params?.['report-type'] ?? '');
  const statusPart = mail.attachments.find(({ contentType }) => STATUS_TYPES.includes(contentType));
  if (!statusPart) {
    return declared
      ? { kind: 'malformed', reason: 'a delivery report without its status part' }
      : { kind: 'not-a-report' };
  }

  const [perMessage, ...perRecipient] = await statusBlocks(statusPart);
  const recipientBlocks = perRecipient.filter((fields) => fields.has('action'));
  if (!perMessage || recipientBlocks.length === 0) {
    return { kind: 'malformed', reason: 'a delivery report without any recipient' };
  }
  const original = await originalOf(mail);
  // The quoted original's Message-ID is often in References too: each once.
  const messageIds = [
    ...new Set([
      ...original.messageIds,
      ...messageIdsOf(perMessage.get('x-original-message-id')),
      ...messageIdsOf(mail.inReplyTo),
      ...messageIdsOf(mail.references),
    ]),
  ];
  const returnPaths = new Set([
    ...['x-original-to', 'delivered-to', 'envelope-to', 'to'].flatMap((name) =>
      addressesOf(mail.headers.get(name)),
    ),
    ...original.returnPaths,
  ]);
  const reportId = mail.messageId ?? `sha1-${createHash('sha1').update(raw).digest('hex')}`;

  const events: MailEventInput[] = [];
  for (const fields of recipientBlocks) {
    const email =
      recipientOf(textOf(fields, 'original-recipient')) ??
      recipientOf(textOf(fields, 'final-recipient'));
    const kind = kindOf(textOf(fields, 'action'), textOf(fields, 'status'));
    if (!email || !kind) continue;
    const detail = detailOf(fields);
    events.push({
      provider: 'dsn',
      eventId: `${reportId}:${email.toLowerCase()}`,
      kind,
      email,
      // A report on several recipients quotes one original, which names one
      // of them: each recipient's event is checked against all it names.
      messageIds,
      returnPaths: [...returnPaths],
      ...(detail ? { detail } : {}),
      ...(mail.date ? { at: mail.date } : {}),
    });
  }
  return { kind: 'report', events };
}
