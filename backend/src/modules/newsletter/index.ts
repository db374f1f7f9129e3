export { newsletterRoutes, type NewsletterRoutesDeps } from './newsletter.routes';
export {
  confirmSubscription,
  requestSubscription,
  unsubscribe,
  type ConfirmOutcome,
  type SubscriptionRequest,
  type UnsubscribeOutcome,
} from './newsletter.service';
export * from './store';
export { UNWATCHED_SUBSCRIBERS, type SubscriberChanges } from './subscriber-changes';
