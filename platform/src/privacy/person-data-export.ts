import { PERSON_DATA_FORMAT_VERSION, type PersonDataExportDto } from '@agency/contracts';
import {
  findListMembershipsOf,
  findMailEventsOf,
  findSuppressionOf,
} from '../audience/person-audience-erasure';
import { findMailsSentTo, findTrackingEventsOf } from '../campaigns/ledger-erasure';
import { findEnquiriesOf } from '../contact/contact-erasure';
import { normalizeEmail } from '../mail/email-address';
import { findSubscriptionOf } from '../newsletter/subscriber-erasure';

/**
 * Everything held about one address, gathered from each module that holds
 * it, as the one JSON document of a data download. Staff accounts are not
 * people the product mails and are left out; so are the CRM's clients and
 * leads, which staff keep by hand (docs/operations.md, "Privacy").
 */
export async function gatherPersonData(
  address: string,
  now = new Date(),
): Promise<PersonDataExportDto> {
  const key = normalizeEmail(address);
  const [
    subscription,
    listMemberships,
    enquiries,
    mailsSent,
    mailEvents,
    suppression,
    trackingEvents,
  ] = await Promise.all([
    findSubscriptionOf(key),
    findListMembershipsOf(key),
    findEnquiriesOf(key),
    findMailsSentTo(key),
    findMailEventsOf(key),
    findSuppressionOf(key),
    findTrackingEventsOf(key),
  ]);
  return {
    formatVersion: PERSON_DATA_FORMAT_VERSION,
    generatedAt: now.toISOString(),
    email: key,
    subscription,
    listMemberships,
    enquiries,
    mailsSent,
    mailEvents,
    suppression,
    trackingEvents,
  };
}
