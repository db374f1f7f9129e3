import type { SubscriberStatus } from '@agency/contracts';
import { SubscriberModel } from './subscriber.model';

/** Reads every address on the list once, with its status, as the reconciliation recounts them. */
export async function forEachSubscriber(
  visit: (subscriber: { email: string; status: SubscriberStatus }) => void | Promise<void>,
): Promise<void> {
  const cursor = SubscriberModel.find({})
    .select({ email: 1, status: 1, _id: 0 })
    .lean()
    .cursor({ batchSize: 1000 });
  for await (const { email, status } of cursor) {
    await visit({ email, status: status as SubscriberStatus });
  }
}
