import {
  PERSON_MAILS_MAX,
  type ConsentEventDto,
  type ConsentEventKind,
  type ListMemberConsentBasis,
  type PersonDetailDto,
  type ServiceSlug,
} from '@agency/contracts';
import {
  findAddressHoldings,
  findCampaignMailsToAddress,
  findCampaignNames,
  normalizeEmail,
  personOfRecords,
  type AddressHoldings,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { toPersonDto } from './people.service';

type ConsentEvent = Omit<ConsentEventDto, 'at'> & { at: Date | undefined };

/** The consent event a list membership's basis tells. */
const MEMBER_CONSENT_EVENTS: Record<ListMemberConsentBasis, ConsentEventKind> = {
  import: 'list-import',
  staff: 'list-added-by-staff',
  'sign-up': 'list-sign-up',
};

function subscriptionEvents({ subscriber }: AddressHoldings): ConsentEvent[] {
  if (!subscriber) return [];
  return [
    {
      kind: 'subscription-requested',
      at: subscriber.consent?.requestedAt,
      detail: subscriber.consent?.source ?? null,
    },
    { kind: 'subscription-confirmed', at: subscriber.confirmedAt, detail: null },
    {
      kind: 'unsubscribed',
      at: subscriber.unsubscribedAt,
      detail: subscriber.unsubscribeMethod ?? null,
    },
  ];
}

/** The consent events an address's records tell, newest first: each record's own dates. */
export function consentEventsOf(held: AddressHoldings): ConsentEventDto[] {
  const events: ConsentEvent[] = [
    ...subscriptionEvents(held),
    ...held.enquiries.map((enquiry) => ({
      kind: 'enquiry-consent' as const,
      at: enquiry.consentRequestedAt ?? undefined,
      detail: enquiry.service,
    })),
    ...held.members.map(({ consent }) => ({
      kind: MEMBER_CONSENT_EVENTS[consent.basis],
      at: consent.at,
      detail: consent.file ? `${consent.listName} (${consent.file})` : consent.listName,
    })),
    ...(held.suppression
      ? [{ kind: 'suppressed' as const, at: held.suppression.at, detail: held.suppression.reason }]
      : []),
  ];
  return events
    .flatMap(({ at, ...event }) => (at ? [{ ...event, at }] : []))
    .sort((a, b) => b.at.getTime() - a.at.getTime())
    .map(({ at, ...event }) => ({ ...event, at: at.toISOString() }));
}

function membershipsOf(held: AddressHoldings): PersonDetailDto['memberships'] {
  return held.members.map((member) => ({
    list: {
      id: String(member.list),
      name: held.listNames.get(String(member.list)) ?? member.consent.listName,
    },
    tags: member.tags ?? [],
    basis: member.consent.basis,
    at: member.consent.at.toISOString(),
  }));
}

function subscriptionOf({ subscriber }: AddressHoldings): PersonDetailDto['subscription'] {
  if (!subscriber) return null;
  return {
    status: subscriber.status as NonNullable<PersonDetailDto['subscription']>['status'],
    locale: subscriber.locale as NonNullable<PersonDetailDto['subscription']>['locale'],
    createdAt: (subscriber.createdAt ?? new Date(0)).toISOString(),
    confirmedAt: subscriber.confirmedAt?.toISOString() ?? null,
    unsubscribedAt: subscriber.unsubscribedAt?.toISOString() ?? null,
  };
}

async function mailEventsOf(held: AddressHoldings): Promise<PersonDetailDto['events']> {
  const ids = [
    ...new Set(held.mailEvents.flatMap(({ campaignId }) => (campaignId ? [campaignId] : []))),
  ];
  const names = ids.length > 0 ? await findCampaignNames(ids) : new Map<string, string>();
  return held.mailEvents.map((event) => ({
    kind: event.kind,
    at: event.at.toISOString(),
    provider: event.provider,
    detail: event.detail,
    campaign: event.campaignId
      ? { id: event.campaignId, name: names.get(event.campaignId) ?? null }
      : null,
  }));
}

/**
 * A person's page, read from the records themselves (not the people view,
 * which may lag a write by a refresh): 404 when nothing holds the address.
 */
export async function getPersonDetail(email: string): Promise<PersonDetailDto> {
  const key = normalizeEmail(email);
  const held = await findAddressHoldings(key, PERSON_MAILS_MAX);
  const person = personOfRecords(key, held);
  if (!person) throw new HttpError('NOT_FOUND', 'No one with this address');
  const [mails, events] = await Promise.all([
    findCampaignMailsToAddress(key, PERSON_MAILS_MAX),
    mailEventsOf(held),
  ]);
  return {
    person: toPersonDto(person),
    enquiries: held.enquiries.map((enquiry) => ({
      id: enquiry.id,
      createdAt: enquiry.createdAt.toISOString(),
      service: enquiry.service as ServiceSlug,
      status: enquiry.status,
    })),
    subscription: subscriptionOf(held),
    memberships: membershipsOf(held),
    suppression: held.suppression
      ? {
          reason: held.suppression.reason as NonNullable<PersonDetailDto['suppression']>['reason'],
          at: held.suppression.at.toISOString(),
          detail: held.suppression.detail ?? null,
        }
      : null,
    consentEvents: consentEventsOf(held),
    mails: mails.map((mail) => ({ ...mail, at: mail.at.toISOString() })),
    events,
  };
}
