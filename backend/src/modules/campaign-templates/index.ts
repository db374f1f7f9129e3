export { campaignTemplateRoutes } from './campaign-template.routes';
