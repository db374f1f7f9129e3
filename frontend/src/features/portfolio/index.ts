export { PortfolioPage } from './portfolio-page';
