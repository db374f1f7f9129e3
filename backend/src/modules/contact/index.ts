export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export * from './store';
