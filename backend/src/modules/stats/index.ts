export { statsRoutes } from './stats.routes';
export { dashboardStats, periodStarts } from './stats.service';
