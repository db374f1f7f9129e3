import { formatInstant, type ContactDto } from '@agency/contracts';
import { escapeHtml } from '@agency/platform';
import type { RenderedMail } from '@agency/platform';
import { SERVICE_TITLES } from './service-titles';

/** The agency's inbox reads English; the visitor's language is stated in the mail. */
const SERVICE_NAMES = SERVICE_TITLES.en;

/**
 * Every field of an enquiry, for the agency's inbox. The time it came in is
 * on the agency's clock (`timeZone`), with the zone named, as the dashboard
 * shows it: staff never convert a raw UTC stamp.
 */
export function renderContactNotification(contact: ContactDto, timeZone: string): RenderedMail {
  const name = `${contact.firstName} ${contact.lastName}`;
  const rows: [string, string][] = [
    ['First name', contact.firstName],
    ['Last name', contact.lastName],
    ['Email', contact.email],
    ['Phone', contact.phone ?? '-'],
    ['Service', SERVICE_NAMES[contact.service]],
    ['Language', contact.locale],
    ['Received', formatInstant(contact.createdAt, 'en', timeZone)],
    ['Enquiry id', contact.id],
  ];
  const text = [
    `New enquiry from ${name}`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    'Message:',
    contact.message,
  ].join('\n');
  const html = [
    `<h1>New enquiry from ${escapeHtml(name)}</h1>`,
    '<table>',
    ...rows.map(
      ([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    '<h2>Message</h2>',
    `<p style="white-space:pre-wrap">${escapeHtml(contact.message)}</p>`,
  ].join('\n');
  return { subject: `New enquiry: ${SERVICE_NAMES[contact.service]} - ${name}`, text, html };
}
