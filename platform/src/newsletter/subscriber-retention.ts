import { trusted } from 'mongoose';
import { UNCONFIRMED_SIGNUP_DAYS } from '@agency/contracts';
import { forgetMailsOf } from '../mail-outbox/mail-outbox-erasure';
import { forEachPage } from '../retention-pages';
import { SubscriberModel } from './subscriber.model';

const DAY_MS = 86_400_000;

/**
 * The sign-ups' retention: an address that asked to subscribe and never
 * clicked its confirmation link within UNCONFIRMED_SIGNUP_DAYS of its last
 * request is deleted, with its confirmation mails' outbox entries and
 * receipts (the mails first, as erasure does: a pass stopped between the
 * two leaves the sign-up, which the next pass finds). A page of ids at a
 * time. Answers how many sign-ups went.
 */
export async function removeUnconfirmedSignups(now: Date, pageSize?: number): Promise<number> {
  const cutoff = new Date(now.getTime() - UNCONFIRMED_SIGNUP_DAYS * DAY_MS);
  const filter = {
    status: 'pending',
    createdAt: trusted({ $lt: cutoff }),
    // Asking again restarts the wait: the new request owes a new link.
    $or: [
      { 'consent.requestedAt': trusted({ $lt: cutoff }) },
      { 'consent.requestedAt': trusted({ $exists: false }) },
    ],
  };
  let removed = 0;
  await forEachPage(
    SubscriberModel,
    filter,
    async (ids) => {
      await Promise.all(ids.map((id) => forgetMailsOf(String(id))));
      // Confirmed between the read and the delete: the status keeps it.
      const deleted = await SubscriberModel.collection.deleteMany({
        _id: { $in: ids },
        status: 'pending',
      });
      removed += deleted.deletedCount;
    },
    pageSize,
  );
  return removed;
}
