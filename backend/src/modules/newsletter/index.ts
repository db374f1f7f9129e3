export { newsletterRoutes, type NewsletterRoutesDeps } from './newsletter.routes';
export {
  confirmSubscription,
  countConfirmedSubscribers,
  unsubscribe,
  type ConfirmOutcome,
  type UnsubscribeOutcome,
} from './newsletter.service';
