export { campaignRoutes } from './campaign.routes';
export { countCampaigns } from './campaign.service';
export { CampaignModel } from './campaign.model';
export { sanitizeCampaignHtml } from './campaign-html';
export {
  cancelCampaign,
  pauseCampaign,
  resendToFailed,
  resumeCampaign,
} from './campaign-controls.service';
