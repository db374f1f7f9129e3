import nodemailer, { type Transporter } from 'nodemailer';

export type MailTransport = Transporter;

/**
 * A pooled SMTP transport: reusing connections is ~10x faster than one
 * connection per mail, which matters for campaign fan-out.
 */
export function createMailTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  return nodemailer.createTransport(url.toString());
}
