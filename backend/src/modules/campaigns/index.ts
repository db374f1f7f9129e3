export { campaignRoutes } from './campaign.routes';
export { countCampaigns } from './campaign.service';
export { sanitizeCampaignHtml } from './campaign-html';
export { campaignControls, type CampaignControls } from './campaign-controls.service';
export { campaignAudience } from './campaign-audience';
