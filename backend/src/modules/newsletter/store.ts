// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  confirmationMailId,
  forEachSubscriber,
  findConfirmationReceipt,
  findSubscriberByEmail,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  settleConfirmationMail,
} from './newsletter.service';
export { normalizeEmail, signConfirmationToken, signUnsubscribeToken } from './newsletter-token';
export { SubscriberModel, type Subscriber, type SubscriberDocument } from './subscriber.model';
export type { SubscriberChanges } from './subscriber-changes';
