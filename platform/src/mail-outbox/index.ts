/**
 * The mail outbox: the mails owed (one entry per enquiry or subscriber,
 * written before the record it mails) and their receipts. It alone reads
 * and writes the owed mails and mail receipts collections.
 */
export * from './mail-outbox.service';
export type { ReceiptMail, ReceiptOutcome } from './mail-receipt.model';
export type { OwedMailJob } from './owed-mail.model';
export * from './mail-outbox-erasure';
