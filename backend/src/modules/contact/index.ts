export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { storeContact } from './contact.service';
export * from './store';
