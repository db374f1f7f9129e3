export { statsRoutes } from './stats.routes';
export { dashboardStats, enquiryTrend, periodStarts, readFigures } from './stats.service';
