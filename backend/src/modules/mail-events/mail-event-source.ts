import type { Locale, MailEventKind } from '@agency/contracts';
import type { MailEventInput } from '@agency/platform';

/** A webhook request as the providers' checks need it: its headers and its bytes as sent. */
export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  /** The language validation reasons are written in. */
  locale: Locale;
}

/** What a provider's body says: the bounces and complaints, and how many other events it held. */
export interface ParsedEvents {
  events: MailEventInput[];
  ignored: number;
}

/** One provider's webhook: whether the request is genuinely theirs, and what it reports. */
export interface MailEventSource {
  /** False (401, nothing stored) when the signature or credentials do not match. */
  verify(request: WebhookRequest): Promise<boolean> | boolean;
  /** Reads the events; throws `MalformedEvents` (400) when the body is not the provider's format. */
  parse(request: WebhookRequest): Promise<ParsedEvents> | ParsedEvents;
  /**
   * When the provider signed this delivery (unix seconds), read once the
   * signature holds; undefined when that timestamp is unreadable. A scheme
   * that signs no time (Postmark's credentials) has no such method.
   */
  signedAt?(request: WebhookRequest): number | undefined;
  /**
   * How much older than the tolerance a signed timestamp may be: the
   * longest the provider keeps retrying one signed message (SNS).
   */
  retrySeconds?: number;
  /**
   * What the signature covers in place of the body (Mailgun's token): each
   * is taken once, or a captured signature would carry any event.
   */
  onceToken?(request: WebhookRequest): string | undefined;
}

/** A body that is not the provider's format (400); `fields` name each failing field with its reason. */
export class MalformedEvents extends Error {
  constructor(
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A unix time in whole seconds, as the providers write it in a header or a signature. */
export function unixSecondsOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

export function header(request: WebhookRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function jsonOf(request: WebhookRequest): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    throw new MalformedEvents('The body is not JSON');
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text with something in it: a blank address or id would be stored as nothing. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value : undefined;
}

export function dateOf(value: unknown): Date | undefined {
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** What a provider's event says, in the terms every provider's are read into. */
export function mailEventKind(says: {
  complaint: boolean;
  hardBounce: boolean;
  softBounce: boolean;
}): MailEventKind | undefined {
  if (says.complaint) return 'complaint';
  if (says.hardBounce) return 'hard-bounce';
  if (says.softBounce) return 'soft-bounce';
  return undefined;
}

/** The texts among `values`, for the Message-IDs and return paths an event names. */
export function textsOf(...values: unknown[]): string[] {
  return values.flatMap((value) => textOf(value) ?? []);
}

/** The event, with the time the provider gives when it gives a readable one. */
export function eventAt(event: MailEventInput, at: unknown): MailEventInput {
  const date = dateOf(at);
  return date ? { ...event, at: date } : event;
}

/**
 * The bounces and complaints among a body's items: `eventOf` reads one, and
 * answers undefined for any other kind of event, which is counted as ignored.
 */
export function eventsOf<T>(
  items: readonly T[],
  eventOf: (item: T) => MailEventInput | undefined,
): ParsedEvents {
  const events: MailEventInput[] = [];
  for (const item of items) {
    const event = eventOf(item);
    if (event) events.push(event);
  }
  return { events, ignored: items.length - events.length };
}
