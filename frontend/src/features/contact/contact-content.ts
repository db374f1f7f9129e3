// The contact section and page without the form: what the prerendered pages
// show. The form (and the API client it brings) is the feature's index.
export { ContactSection } from './components/contact-section';
export { ContactPage } from './contact-page';
