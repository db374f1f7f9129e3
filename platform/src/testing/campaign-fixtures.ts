import type { EnquiryLawfulBasis, Locale, RecipientType, SendingWindow } from '@agency/contracts';
import { ContactAddressModel } from '../contact/contact-address.model';
import { ContactModel } from '../contact/contact.model';
import { SubscriberModel } from '../newsletter/subscriber.model';
import { CampaignModel } from '../campaigns/campaign.model';

/**
 * A campaign's audience and the campaign itself as the API stores them, for
 * tests of the campaigns module's store and of the worker's engine.
 */
export interface SeedContact {
  email: string;
  firstName?: string;
  locale?: string;
  /**
   * Whether the enquiry ticked "send me news"; unset: it did, since a
   * campaign to enquiry contacts mails only those (false: left out).
   */
  consented?: boolean;
}

export interface SeedSubscriber {
  email: string;
  status: 'pending' | 'confirmed' | 'unsubscribed';
  locale?: string;
}

const NAMES = ['Amira', 'Sami', 'Leila', 'Karim', 'Nour', 'Youssef'];

export function contactDocument(contact: SeedContact, index: number) {
  return {
    firstName: contact.firstName ?? NAMES[index % NAMES.length],
    lastName: 'Test',
    email: contact.email,
    service: 'web-design',
    message: 'A campaign test recipient',
    locale: contact.locale ?? 'en',
    // Their own mails are done: only the campaign mails them here.
    mailState: 'sent',
    acknowledgementState: 'sent',
    ...(contact.consented === false
      ? {}
      : {
          consent: {
            requestedAt: new Date(),
            locale: contact.locale ?? 'en',
            source: 'contact-form',
            wordingVersion: 'contact-news-consent-v1',
          },
        }),
  };
}

/** As the API stores enquiries: each with its address for the campaign audience. */
export async function seedContacts(contacts: readonly SeedContact[]): Promise<void> {
  const stored = await ContactModel.insertMany(contacts.map(contactDocument), { lean: true });
  await ContactAddressModel.insertMany(
    stored.map(({ _id, email, firstName, lastName, locale, consent }) => ({
      _id,
      email,
      firstName,
      lastName,
      locale,
      ...(consent ? { consented: true } : {}),
    })),
    { lean: true },
  );
}

export async function seedSubscribers(subscribers: readonly SeedSubscriber[]): Promise<void> {
  await SubscriberModel.insertMany(
    subscribers.map((subscriber) => ({
      email: subscriber.email,
      status: subscriber.status,
      locale: subscriber.locale ?? 'en',
    })),
  );
}

export interface QueuedCampaignFields {
  recipientType?: RecipientType;
  /** For `segments`: which ones. */
  segmentIds?: string[];
  /** Unset: none, so only the enquiry contacts who consented are mailed. */
  enquiryLawfulBasis?: EnquiryLawfulBasis | null;
  subject?: string;
  content?: string;
  defaultLocale?: Locale;
  translations?: { locale: Locale; subject: string; content: string }[];
  sendingWindow?: SendingWindow | null;
  ratePerMinute?: number | null;
  fromAddress?: string | null;
  replyTo?: string | null;
  /** The editor's switches; unset: the model's (both on). */
  tracking?: { opens: boolean; clicks: boolean };
}

/** A campaign marked queued, as the send route leaves it (its dispatch job is the caller's). */
export async function createQueuedCampaign(fields: QueuedCampaignFields = {}): Promise<string> {
  const campaign = await CampaignModel.create({
    name: 'Spring offer',
    subject: fields.subject ?? 'Hello {{firstName}}',
    content: fields.content ?? '<p>Dear {{firstName}}, our spring packages are here.</p>',
    recipientType: fields.recipientType ?? 'all',
    segmentIds: fields.segmentIds ?? [],
    enquiryLawfulBasis: fields.enquiryLawfulBasis ?? null,
    defaultLocale: fields.defaultLocale ?? 'en',
    translations: fields.translations ?? [],
    sendingWindow: fields.sendingWindow ?? null,
    ratePerMinute: fields.ratePerMinute ?? null,
    fromAddress: fields.fromAddress ?? null,
    replyTo: fields.replyTo ?? null,
    ...(fields.tracking ? { tracking: fields.tracking } : {}),
    status: 'queued',
    queuedAt: new Date(),
  });
  return String(campaign._id);
}

/** The campaign as stored, every field. */
export async function storedCampaign(id: string): Promise<Record<string, unknown>> {
  const campaign = await CampaignModel.findById(id).lean();
  if (!campaign) throw new Error(`no campaign ${id}`);
  return campaign as unknown as Record<string, unknown>;
}
