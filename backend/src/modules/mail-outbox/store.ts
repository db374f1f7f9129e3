// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  findOwedMail,
  findOwedMailById,
  findOwedRefs,
  findFailedReceipts,
  findReceipt,
  forgetReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
  RECEIPT_ERROR_MAX_LENGTH,
  type OwedMailEntry,
  type Receipt,
} from './mail-outbox.service';
export { MailReceiptModel, type ReceiptMail, type ReceiptOutcome } from './mail-receipt.model';
export { OwedMailModel, type OwedMailJob } from './owed-mail.model';
