export { archiveRoutes, ARCHIVE_MAX_AGE_SECONDS, type ArchiveRoutesDeps } from './archive.routes';
