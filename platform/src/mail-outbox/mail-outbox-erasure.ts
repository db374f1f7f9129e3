import { MailReceiptModel } from './mail-receipt.model';
import { OwedMailModel } from './owed-mail.model';

/**
 * Erasing a person: what their enquiries' or subscription's mails still owed,
 * and how those mails ended, by the record's id (`ref`). Receipts hold no
 * address, but they tell that mail went to the person.
 */
export async function forgetMailsOf(ref: string): Promise<void> {
  await Promise.all([
    OwedMailModel.deleteMany({ $or: [{ contactId: ref }, { subscriberId: ref }] }),
    MailReceiptModel.deleteMany({ ref }),
  ]);
}
