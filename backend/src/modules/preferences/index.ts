export { publicListRoutes } from './public-list.routes';
export { preferenceRoutes } from './preferences.routes';
export { privacyLinkRoutes } from './privacy-links.routes';
