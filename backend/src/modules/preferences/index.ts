export { publicListRoutes } from './public-list.routes';
