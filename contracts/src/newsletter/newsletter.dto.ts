/**
 * Where a newsletter address stands: `pending` until the visitor confirms the
 * double opt-in mail, `confirmed` while it may receive newsletters and
 * campaigns, `unsubscribed` once it asked to stop (kept, so it stays excluded).
 */
export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];
