/** The mail outbox's models, for tests' fixtures and assertions only. */
export { OwedMailModel } from '../mail-outbox/owed-mail.model';
export { MailReceiptModel, type ReceiptMail } from '../mail-outbox/mail-receipt.model';
