import type { Middleware } from 'koa';
import { API_ROUTES } from '@agency/contracts';
import cors from '@koa/cors';
import helmet from 'koa-helmet';
import { authenticate, type SessionResolver } from './authenticate';
import { auditTrail, type AuditRecorder } from './audit';

/** Security headers of a JSON API: no sniffing, no framing, HSTS, no referrer. */
export function securityHeaders(): Middleware {
  return helmet({
    contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/** Only the website's own origin may call the API from a browser, with credentials. */
export function corsPolicy(origin: string): Middleware {
  return cors({
    origin,
    credentials: true,
    maxAge: 600,
    exposeHeaders: ['Retry-After', 'Content-Disposition', 'X-Request-Id'],
  });
}

const ADMIN_PREFIX = `${API_ROUTES.admin}/`;

/**
 * Everything under /api/admin/ but sign-in needs a valid token, checked
 * before the body is even read; admin answers are never cached; and every
 * successful change there is written to the activity log.
 */
export function adminArea(options: {
  resolveSession: SessionResolver;
  recordActivity: AuditRecorder;
  /** What answers without a token: signing in and resetting a forgotten password. */
  publicPaths: readonly string[];
}): Middleware {
  const publicPaths = new Set(options.publicPaths);
  const requireSession = authenticate(options.resolveSession);
  const trail = auditTrail(options.recordActivity);
  return async (ctx, next) => {
    if (!ctx.path.startsWith(ADMIN_PREFIX)) return next();
    ctx.set('Cache-Control', 'no-store');
    if (publicPaths.has(ctx.path)) return next();
    return requireSession(ctx, () => trail(ctx, next));
  };
}
