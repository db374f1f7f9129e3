// Loaded lazily by app/.
export { AdminCampaignsPage } from './admin-campaigns-page';
export { CampaignManager } from './components/campaign-manager';
