export { adminContactRoutes } from './admin-contact.routes';
