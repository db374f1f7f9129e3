// Loaded lazily by app/: the dashboard's Overview pieces. The charts (Analytics) are
// their own chunk: app/ imports admin-analytics-page and components/analytics-panel by path.
export { OverviewPanel } from './components/overview-panel';
export { StatCards } from './components/stat-cards';
export { DASHBOARD_NAMESPACE } from './dashboard-namespace';
