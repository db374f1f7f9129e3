export { AboutSection } from './components/about-section';
export { HeroSection } from './components/hero-section';
export { PackagesSection } from './components/packages-section';
