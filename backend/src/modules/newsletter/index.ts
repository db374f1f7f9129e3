export * from './store';
export { subscriberEmails } from './subscriber-audience';
