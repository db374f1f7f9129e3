export { segmentRoutes } from './segments.routes';
