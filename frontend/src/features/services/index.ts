export { ServicesPage } from './services-page';
