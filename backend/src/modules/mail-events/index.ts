export { mailEventRoutes } from './mail-events.routes';
