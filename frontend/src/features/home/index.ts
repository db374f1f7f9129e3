// The hero is part of the first paint; the sections below it are loaded on
// demand from './sections' (see app/home-page.tsx), keeping the first load small.
export { HeroSection } from './components/hero-section';
export { HOME_NAMESPACE } from './home-namespace';
