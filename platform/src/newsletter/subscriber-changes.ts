import type { SubscriberStatus } from '@agency/contracts';

/**
 * Told of every change of an address's subscription once the store has taken
 * it, with the status it left (null for an address new to the list). A
 * listener never throws: a missed change is drift, which the scheduled
 * reconciliation repairs.
 */
export interface SubscriberChanges {
  statusChanged(email: string, from: SubscriberStatus | null, to: SubscriberStatus): Promise<void>;
}

/** For callers that keep no views (tests of the store alone). */
export const UNWATCHED_SUBSCRIBERS: SubscriberChanges = {
  statusChanged: () => Promise.resolve(),
};
