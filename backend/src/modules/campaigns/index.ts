export { campaignRoutes } from './campaign.routes';
export { campaignControls, type CampaignControls } from './campaign-controls.service';
export { campaignAudience } from './campaign-audience';
export { campaignScheduling, type CampaignScheduling } from './campaign-schedule.service';
export { campaignReportRoutes } from './campaign-report.routes';
