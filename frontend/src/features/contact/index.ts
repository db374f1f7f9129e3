export { ContactForm } from './components/contact-form';
export { contactApi, useSubmitContactMutation, type ContactRequest } from './api/contact-api';
