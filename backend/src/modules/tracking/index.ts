export { trackingRoutes, type TrackingRoutesDeps } from './tracking.routes';
export {
  createTrackingEventBuffer,
  type TrackingEventBuffer,
  type TrackingEventCounters,
} from './tracking-event-buffer';
export { createCampaignLinkTables, type CampaignLinkTables } from './campaign-link-tables';
