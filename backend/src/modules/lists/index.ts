export { listRoutes } from './list.routes';
