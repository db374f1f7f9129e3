// Loaded lazily by app/.
export { AdminCampaignsPage } from './admin-campaigns-page';
export { CampaignManager } from './components/campaign-manager';
export { CampaignReportPage } from './campaign-report-page';
