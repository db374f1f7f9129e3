export { statsRoutes } from './stats.routes';
export { dashboardStats, enquiryTrend, periodStarts } from './stats.service';
export * from './store';
