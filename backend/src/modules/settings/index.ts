export { testRecipientRoutes } from './test-recipients.routes';
export { agencySettingsRoutes } from './agency-settings.routes';
