/**
 * Delivery status notifications shaped as Postfix writes them, for the
 * tests that put them in a real mailbox.
 */
export interface DsnOptions {
  /** The report's own Message-ID, without brackets. */
  id: string;
  recipient: string;
  action: 'failed' | 'delayed';
  status: string;
  diagnostic: string;
  /** The address the report was returned to (the original's envelope sender). */
  returnedTo: string;
  /** The original's Message-ID, quoted whole; absent, only its header is quoted, without one. */
  originalMessageId?: string;
}

export function postfixDsn({
  id,
  recipient,
  action,
  status,
  diagnostic,
  returnedTo,
  originalMessageId,
}: DsnOptions): string {
  const boundary = `${id.replace(/@.*/, '')}/mx.example.tn`;
  const original = originalMessageId
    ? [
        'Content-Description: Undelivered Message',
        'Content-Type: message/rfc822',
        '',
        `Return-Path: <${returnedTo}>`,
        `Message-ID: ${originalMessageId}`,
        'From: Agency <news@agency.test>',
        `To: ${recipient}`,
        'Subject: Our autumn offers',
        '',
        'Hello',
      ]
    : [
        'Content-Description: Undelivered Message Headers',
        'Content-Type: text/rfc822-headers',
        '',
        `Return-Path: <${returnedTo}>`,
        'From: Agency <news@agency.test>',
        `To: ${recipient}`,
        'Subject: Our autumn offers',
      ];
  return [
    'Return-Path: <>',
    `X-Original-To: ${returnedTo}`,
    `Delivered-To: ${returnedTo}`,
    'Date: Thu, 26 Nov 2026 09:00:00 +0000 (UTC)',
    'From: MAILER-DAEMON@mx.example.tn (Mail Delivery System)',
    `Subject: ${action === 'failed' ? 'Undelivered Mail Returned to Sender' : 'Delayed Mail (still being retried)'}`,
    `To: ${returnedTo}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    `Message-Id: <${id}>`,
    '',
    'This is a MIME-encapsulated message.',
    '',
    `--${boundary}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Your message could not be delivered to one or more recipients.',
    '',
    `--${boundary}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.tn',
    'Arrival-Date: Thu, 26 Nov 2026 08:59:58 +0000 (UTC)',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    'Remote-MTA: dns; mail.example.tn',
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    `--${boundary}`,
    ...original,
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

export interface ReportOnManyOptions {
  /** The report's own Message-ID, without brackets. */
  id: string;
  /** One `Final-Recipient` block each, all failed with the same status. */
  recipients: readonly string[];
  status: string;
  /** Message-IDs the report says it answers (its References header). */
  references: readonly string[];
  returnedTo: string;
}

/**
 * A report on several recipients that quotes no original and names the mail
 * it answers in its References header alone: what anyone can write and mail
 * to the bounce mailbox.
 */
export function reportOnMany({
  id,
  recipients,
  status,
  references,
  returnedTo,
}: ReportOnManyOptions): string {
  const boundary = `${id.replace(/@.*/, '')}/report`;
  return [
    'Return-Path: <>',
    `To: ${returnedTo}`,
    'Date: Thu, 26 Nov 2026 09:30:00 +0000 (UTC)',
    'From: MAILER-DAEMON@mx.example.tn (Mail Delivery System)',
    'Subject: Undelivered Mail Returned to Sender',
    `References: ${references.join(' ')}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    `Message-Id: <${id}>`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'Your message could not be delivered to one or more recipients.',
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.tn',
    '',
    ...recipients.flatMap((recipient) => [
      `Final-Recipient: rfc822; ${recipient}`,
      'Action: failed',
      `Status: ${status}`,
      `Diagnostic-Code: smtp; 550 ${status} <${recipient}>: User unknown`,
      '',
    ]),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
