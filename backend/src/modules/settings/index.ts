export { testRecipientRoutes } from './test-recipients.routes';
