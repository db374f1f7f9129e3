export { newsletterRoutes, type NewsletterRoutesDeps } from './newsletter.routes';
export {
  confirmSubscription,
  requestSubscription,
  unsubscribe,
  type ConfirmOutcome,
  type SubscriptionRequest,
  type UnsubscribeOutcome,
} from './newsletter.service';
export { countConfirmedSubscribers } from './newsletter.service';
export { subscriberEmails } from './subscriber-audience';
