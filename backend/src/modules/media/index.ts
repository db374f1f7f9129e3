export { mediaRoutes, type MediaRoutesDeps } from './media.routes';
export { createMediaService, type MediaService } from './media.service';
export { createMediaStorage } from './media-storage.factory';
export type { MediaStorage } from './media-storage';
export { createImageProcessPool, type ImageProcessor } from './media-image.pool';
