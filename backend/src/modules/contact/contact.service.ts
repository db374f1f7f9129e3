import type { ContactDto, Locale } from '@agency/contracts';
import type { ContactMailStatuses, StoredContact } from '@agency/platform';

/**
 * Maps a stored contact and where its two mails stand
 * (`contactMailStatuses`) to its DTO.
 */
export function toContactDto(contact: StoredContact, mails: ContactMailStatuses): ContactDto {
  return {
    id: String(contact._id),
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    ...(contact.phone ? { phone: contact.phone } : {}),
    service: contact.service as ContactDto['service'],
    message: contact.message,
    locale: contact.locale as Locale,
    status: contact.status as ContactDto['status'],
    mailState: mails.notification.state,
    acknowledgementState: mails.acknowledgement.state,
    createdAt: contact.createdAt.toISOString(),
  };
}
