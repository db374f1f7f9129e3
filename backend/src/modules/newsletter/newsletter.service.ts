import { SubscriberModel } from './subscriber.model';

/** Addresses that confirmed their subscription and have not left since. */
export async function countConfirmedSubscribers(): Promise<number> {
  return SubscriberModel.countDocuments({ status: 'confirmed' }).exec();
}
