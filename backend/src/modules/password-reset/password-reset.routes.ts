import { createHash } from 'node:crypto';
import Router from '@koa/router';
import {
  API_ROUTES,
  PASSWORD_RESET_REQUEST_RESPONSE,
  isLocale,
  passwordResetRequestSchema,
  passwordResetSchema,
  type PasswordResetResponse,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import { rateLimit, rateLimitBy } from '../../middleware/rate-limit';
import { requestLocale, validateBody } from '../../middleware/validate';
import { enqueuePasswordReset, type PasswordResetQueue } from '../../queues/password-reset-queue';
import {
  type Redis,
  storeResetRequest,
  redeemResetLink,
  voidOtherResetLinks,
  resetTokenHash,
} from '@agency/platform';
import { setPasswordAfterReset } from '../users';
import { recordActivity } from '../activity-log';

export const PASSWORD_RESET_PATHS = [
  API_ROUTES.passwordReset,
  API_ROUTES.passwordResetConfirm,
] as const;

export interface PasswordResetRoutesDeps {
  queue: PasswordResetQueue;
  redis: Redis;
  prefix: string;
  rateLimit: { windowMs: number; perIpMax: number; perAddressMax: number };
}

/** Redis keys name the address by a digest: the limiter has no need to store e-mails. */
function addressKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);
}

function linkInvalid(): HttpError {
  return new HttpError(
    'LINK_EXPIRED',
    'This reset link has expired or was already used; ask for a new one',
  );
}

export function passwordResetRoutes({
  queue,
  redis,
  prefix,
  rateLimit: limits,
}: PasswordResetRoutesDeps): Router {
  const router = new Router();
  const perIp = rateLimit({
    redis,
    name: `${prefix}:ratelimit:password-reset-ip`,
    max: limits.perIpMax,
    windowMs: limits.windowMs,
  });
  const perAddress = rateLimitBy({
    redis,
    name: `${prefix}:ratelimit:password-reset-address`,
    max: limits.perAddressMax,
    windowMs: limits.windowMs,
  });

  /**
   * Every request is stored and enqueued the same way, whether or not the
   * address belongs to a staff member: the API never looks the address up,
   * so neither the answer nor its time tells anyone who works here. The
   * worker sends a link only to a staff member's address.
   */
  router.post(API_ROUTES.passwordReset, perIp, async (ctx) => {
    const input = await validateBody(ctx, passwordResetRequestSchema);
    await perAddress(addressKey(input.email))(ctx, async () => {
      const requestId = await storeResetRequest({
        email: input.email,
        locale: isLocale(input.locale) ? input.locale : requestLocale(ctx),
        ip: ctx.ip,
      });
      try {
        await enqueuePasswordReset(queue, { requestId });
      } catch (error: unknown) {
        // A reset link is worth having only now: the visitor asks again.
        ctx.state.log.warn({ err: error, requestId }, 'password reset mail not enqueued');
      }
      ctx.status = 202;
      ctx.body = PASSWORD_RESET_REQUEST_RESPONSE;
    });
  });

  /** The reset page: a new password for the link's user, whose every session then ends. */
  router.post(API_ROUTES.passwordResetConfirm, perIp, async (ctx) => {
    const { token, newPassword } = await validateBody(ctx, passwordResetSchema);
    // Two submissions of one link at the same moment: only the first may pass.
    const claimed = await redis
      .set(`${prefix}:password-reset-used:${resetTokenHash(token)}`, '1', 'EX', 3600, 'NX')
      .catch(() => 'OK');
    if (claimed !== 'OK') throw linkInvalid();
    const request = await redeemResetLink(token);
    if (!request?.userId) throw linkInvalid();
    const user = await setPasswordAfterReset(request.userId, newPassword);
    if (!user) throw linkInvalid();
    await voidOtherResetLinks(request.userId);
    await recordActivity({
      actor: { id: String(user._id), username: user.username },
      action: 'auth.password-reset',
      target: { type: 'user', id: String(user._id), label: user.username },
      ip: ctx.ip,
    });
    const body: PasswordResetResponse = { status: 'reset' };
    ctx.body = body;
  });

  return router;
}
