// Loaded lazily by app/.
export { AdminPeoplePage } from './admin-people-page';
export { PersonPage } from './person-page';
export { SegmentsPage } from './segments-page';
