export { newsletterRoutes, type NewsletterRoutesDeps } from './newsletter.routes';
export {
  confirmSubscription,
  unsubscribe,
  type ConfirmOutcome,
  type UnsubscribeOutcome,
} from './newsletter.service';
