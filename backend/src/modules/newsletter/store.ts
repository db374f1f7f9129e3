// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  confirmationMailId,
  countConfirmedSubscribers,
  findConfirmationReceipt,
  findSubscriberByEmail,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  recordQueuedSubscription,
  settleConfirmationMail,
} from './newsletter.service';
export { normalizeEmail, signConfirmationToken, signUnsubscribeToken } from './newsletter-token';
export { SubscriberModel, type Subscriber, type SubscriberDocument } from './subscriber.model';
