// The banner without its form: what the prerendered pages show. The form
// (and the API client it brings) is the feature's index.
export { NewsletterBanner } from './components/newsletter-banner';
