export { PrivacyPage } from './privacy-page';
