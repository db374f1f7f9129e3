export { NewsletterForm } from './components/newsletter-form';
export {
  newsletterApi,
  useConfirmNewsletterMutation,
  useSubscribeNewsletterMutation,
  useUnsubscribeNewsletterMutation,
} from './api/newsletter-api';
