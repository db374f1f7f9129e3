import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  API_ROUTES,
  MEDIA_ID_PATTERN,
  mediaDeleteQuerySchema,
  mediaListQuerySchema,
  mediaUpdateSchema,
  mediaUploadSchema,
  message,
  type MediaUploadResponse,
} from '@agency/contracts';
import type { Redis } from '@agency/platform';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { rateLimit, rateLimitBy } from '../../middleware/rate-limit';
import { idParam, requestLocale, validateBody, validateQuery } from '../../middleware/validate';
import { MediaRefusal } from './media-refusal';
import type { MediaService } from './media.service';
import type { MediaStorage } from './media-storage';
import { declaredTooLarge, discardUpload, readUpload, type UploadRequest } from './media-upload';

const HOUR_MS = 60 * 60 * 1000;

/**
 * A revalidation (304) carries no image and mail clients send one on every
 * open of a mail they have shown before: it gets this many times the
 * downloads' budget, counted apart, so re-opens never use up the downloads.
 */
const REVALIDATIONS_PER_DOWNLOAD = 10;

/** What the public file route serves: an image's mail variant or its thumbnail, nothing else. */
const MEDIA_FILE_NAME = /^[a-f0-9]{64}(?:-thumb)?\.(?:jpg|png|gif)$/;

const isMediaId = (value: unknown): value is string =>
  typeof value === 'string' && MEDIA_ID_PATTERN.test(value);

export interface MediaRoutesDeps {
  service: MediaService;
  storage: MediaStorage;
  redis: Redis;
  queuePrefix: string;
  uploadsPerHour: number;
  /** Public image downloads per client IP (MEDIA_FILE_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS). */
  fileRateLimit: { max: number; windowMs: number };
  /** Where uploads are kept while they are read and processed (MEDIA_UPLOAD_DIR). */
  uploadDir: string;
}

/** The upload's parts, or the refusal in the caller's language. */
async function uploadOf(
  ctx: Context,
  uploadDir: string,
): Promise<UploadRequest & { file: NonNullable<UploadRequest['file']> }> {
  try {
    const refusal = declaredTooLarge(ctx.request.length);
    if (refusal) throw refusal;
    const upload = await readUpload(ctx.req, uploadDir);
    if (!upload.file) {
      throw new MediaRefusal('VALIDATION_FAILED', message('mediaFileRequired'));
    }
    return { ...upload, file: upload.file };
  } catch (error) {
    if (error instanceof MediaRefusal) throw error.toHttpError(requestLocale(ctx));
    throw error;
  }
}

function libraryRoutes(router: Router, deps: MediaRoutesDeps): void {
  const { service } = deps;
  // Each upload takes a core for a while (its image work): counted per staff member.
  const uploadsOf = rateLimitBy({
    redis: deps.redis,
    name: `${deps.queuePrefix}:ratelimit:media-upload`,
    max: deps.uploadsPerHour,
    windowMs: HOUR_MS,
  });

  router.post(
    API_ROUTES.media,
    authorize('campaigns:write'),
    (ctx, next) => uploadsOf(sessionUser(ctx.state).id)(ctx, next),
    async (ctx) => {
      const upload = await uploadOf(ctx, deps.uploadDir);
      let answer: MediaUploadResponse;
      try {
        ctx.request.body = upload.fields;
        const { name } = await validateBody(ctx, mediaUploadSchema);
        const user = sessionUser(ctx.state);
        answer = await service.upload(upload.file, name, { id: user.id, username: user.username });
      } catch (error) {
        if (error instanceof MediaRefusal) throw error.toHttpError(requestLocale(ctx));
        throw error;
      } finally {
        await discardUpload(upload.file);
      }
      audit(ctx, 'media.upload', { type: 'media', id: answer.item.id, label: answer.item.name });
      ctx.status = answer.duplicate ? 200 : 201;
      ctx.body = answer;
    },
  );

  router.get(API_ROUTES.media, authorize('campaigns:read'), async (ctx) => {
    ctx.body = await service.list(await validateQuery(ctx, mediaListQuerySchema));
  });

  router.get(API_ROUTES.mediaItem, authorize('campaigns:read'), async (ctx) => {
    ctx.body = await service.get(idParam(ctx, isMediaId));
  });

  router.patch(API_ROUTES.mediaItem, authorize('campaigns:write'), async (ctx) => {
    const id = idParam(ctx, isMediaId);
    const { name } = await validateBody(ctx, mediaUpdateSchema);
    const { item, previousName } = await service.rename(id, name);
    audit(ctx, 'media.update', { type: 'media', id, label: item.name }, [
      { field: 'name', before: previousName, after: item.name },
    ]);
    ctx.body = item;
  });

  router.delete(API_ROUTES.mediaItem, authorize('campaigns:write'), async (ctx) => {
    const id = idParam(ctx, isMediaId);
    const { force } = await validateQuery(ctx, mediaDeleteQuerySchema);
    const item = await service.remove(id, force);
    audit(ctx, 'media.delete', { type: 'media', id, label: item.name });
    ctx.status = 204;
  });
}

const fileParam = (ctx: Context): string => (ctx.params as { file?: string }).file ?? '';

/** Whether the client only asks if the copy it holds (its ETag is the file's name) is still good. */
function asksOnlyToRevalidate(ctx: Context): boolean {
  const file = fileParam(ctx);
  return ctx
    .get('If-None-Match')
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${file}"`);
}

/**
 * Per client IP, as the other public routes. The clients are mail programs
 * and image proxies: Gmail's proxy fetches for every Gmail reader from a few
 * shared addresses, and Apple's privacy relay prefetches each mail as it is
 * delivered, so one address may stand for thousands of readers of one
 * campaign. The default (6,000 downloads per 10 minutes, 10 a second) is
 * twice what such an address asks when half of a 50,000-recipient campaign
 * opens in its first hour, a third of them through it, each open fetching
 * two images uncached; a single client is still held to 10 images a second.
 */
function fileRateLimit({ redis, queuePrefix, fileRateLimit: limit }: MediaRoutesDeps): Middleware {
  const downloads = rateLimit({
    redis,
    name: `${queuePrefix}:ratelimit:media-file`,
    ...limit,
  });
  const revalidations = rateLimit({
    redis,
    name: `${queuePrefix}:ratelimit:media-file-revalidation`,
    max: limit.max * REVALIDATIONS_PER_DOWNLOAD,
    windowMs: limit.windowMs,
  });
  return (ctx, next) => (asksOnlyToRevalidate(ctx) ? revalidations : downloads)(ctx, next);
}

/**
 * The public image files. Their names are content hashes, so a file never
 * changes: cached for a year. The headers make sure no browser ever takes
 * one for a page, whatever its bytes.
 */
function fileRoutes(router: Router, deps: MediaRoutesDeps): void {
  const { storage } = deps;
  const notFound = (ctx: Context) => {
    ctx.status = 404;
    ctx.body = { error: { code: 'NOT_FOUND', message: 'No such image' } };
  };
  const setFileHeaders = (ctx: Context, file: string) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.etag = file;
  };
  const serve = async (ctx: Context) => {
    const file = fileParam(ctx);
    if (!MEDIA_FILE_NAME.test(file)) return notFound(ctx);
    // The copy the client holds is the file (its ETag is the file's name):
    // asked whether it is still there, not for its bytes, which a bucket
    // would start sending.
    if (asksOnlyToRevalidate(ctx)) {
      if (!(await storage.has(file))) return notFound(ctx);
      setFileHeaders(ctx, file);
      ctx.status = 304;
      return;
    }
    const stored = await storage.get(file);
    if (!stored) return notFound(ctx);
    setFileHeaders(ctx, file);
    ctx.type = stored.contentType;
    ctx.length = stored.length;
    if (ctx.method === 'HEAD') {
      stored.body.destroy();
      ctx.status = 200;
      return;
    }
    ctx.body = stored.body;
  };
  router.get(API_ROUTES.mediaFile, fileRateLimit(deps), serve);
}

export function mediaRoutes(deps: MediaRoutesDeps): Router {
  const router = new Router();
  libraryRoutes(router, deps);
  fileRoutes(router, deps);
  return router;
}
