export { NewsletterBanner } from './components/newsletter-banner';
export {
  newsletterApi,
  useConfirmNewsletterMutation,
  useSubscribeNewsletterMutation,
  useUnsubscribeNewsletterMutation,
} from './api/newsletter-api';
