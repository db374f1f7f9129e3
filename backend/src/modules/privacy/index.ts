export { privacyRoutes } from './privacy.routes';
export { createPrivacyService, type PrivacyService } from './privacy.service';
