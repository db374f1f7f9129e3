import { createMailTransport, type MailTransport } from '../mail/transport';

/**
 * The campaign sends' own pool: as many SMTP connections as batches in
 * flight, each kept for many messages (a new connection costs a greeting,
 * ~100 ms on some servers), apart from the enquiry mail's pool.
 */
export function createCampaignTransport(smtpUrl: string, connections: number): MailTransport {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('maxConnections')) {
    url.searchParams.set('maxConnections', String(connections));
  }
  if (!url.searchParams.has('maxMessages')) url.searchParams.set('maxMessages', '10000');
  return createMailTransport(url.toString());
}
