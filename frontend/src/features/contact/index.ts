export { ContactForm } from './components/contact-form';
export { ContactSection } from './components/contact-section';
export { ContactPage } from './contact-page';
export { contactApi, useSubmitContactMutation, type ContactRequest } from './api/contact-api';
