export { clientRoutes } from './client.routes';
export { ClientModel } from './client.model';
