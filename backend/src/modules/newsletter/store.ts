// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  countConfirmedSubscribers,
  findConfirmationsAwaitingMail,
  findSubscriberByEmail,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
} from './newsletter.service';
export { signConfirmationToken, signUnsubscribeToken } from './newsletter-token';
export { SubscriberModel, type Subscriber, type SubscriberDocument } from './subscriber.model';
