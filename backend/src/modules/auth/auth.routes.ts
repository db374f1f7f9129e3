import Router from '@koa/router';
import type { Context } from 'koa';
import {
  API_ROUTES,
  enrolmentStartSchema,
  loginSchema,
  passwordChangeSchema,
  reauthenticationSchema,
  secondFactorSchema,
  twoFactorConfirmSchema,
  twoFactorSetupSchema,
  type AuthUserDto,
  type LoginFailureResponse,
  type LoginOptionsResponse,
  type MeResponse,
} from '@agency/contracts';
import type { ApiConfig } from '../../config';
import { HttpError } from '../../errors';
import { audit, unaudited } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { requestLocale, validateBody } from '../../middleware/validate';
import { endOtherSessions } from '../sessions';
import {
  changePassword,
  completeEnrolment,
  completeSecondFactor,
  confirmAccountOwner,
  confirmOwnSetup,
  disableOwnTwoFactor,
  FieldRefused,
  login,
  renewRecoveryCodes,
  startEnrolment,
  startOwnSetup,
  twoFactorStatus,
  type LoginDeps,
} from './auth.service';
import type { SignInOrigin } from './token.service';

/** The sign-in answers keep the spec's `success` flag, failures included. */
function asLoginFailure(error: HttpError): LoginFailureResponse {
  return { success: false, ...error.toBody() };
}

export function originOf(ctx: Context): SignInOrigin {
  return { ip: ctx.ip, userAgent: ctx.get('user-agent') };
}

/** Runs a step of the sign-in, answering failures in the sign-in's shape. */
async function signInStep(ctx: Context, step: () => Promise<object>): Promise<void> {
  try {
    ctx.body = await step();
  } catch (error: unknown) {
    const refusal = error instanceof FieldRefused ? error.toHttpError(requestLocale(ctx)) : error;
    if (!(refusal instanceof HttpError)) throw refusal;
    ctx.status = refusal.status;
    if (refusal.headers) ctx.set(refusal.headers);
    ctx.body = asLoginFailure(refusal);
  }
}

/** Rethrows a refusal naming a field as the 400 that names it. */
async function withFieldReasons<T>(ctx: Context, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error: unknown) {
    if (error instanceof FieldRefused) throw error.toHttpError(requestLocale(ctx));
    throw error;
  }
}

export interface LoginRoutesDeps extends LoginDeps {
  demo: ApiConfig['demo'];
}

/** The paths under /api/admin that answer without a token: the steps of signing in. */
export const SIGN_IN_PATHS = [
  API_ROUTES.login,
  API_ROUTES.loginOptions,
  API_ROUTES.loginSecondFactor,
  API_ROUTES.loginEnrolment,
  API_ROUTES.loginEnrolmentConfirm,
] as const;

/**
 * Signing in: the password, then (when the user has or needs one) the
 * second factor, each step answering in the sign-in's `success` shape.
 */
export function loginRoutes({ demo, ...deps }: LoginRoutesDeps): Router {
  const router = new Router();
  router.post(API_ROUTES.login, (ctx) =>
    signInStep(ctx, async () => login(deps, await validateBody(ctx, loginSchema), originOf(ctx))),
  );
  router.post(API_ROUTES.loginSecondFactor, (ctx) =>
    signInStep(ctx, async () =>
      completeSecondFactor(deps, await validateBody(ctx, secondFactorSchema), originOf(ctx)),
    ),
  );
  router.post(API_ROUTES.loginEnrolment, (ctx) =>
    signInStep(ctx, async () =>
      startEnrolment(deps, (await validateBody(ctx, enrolmentStartSchema)).challenge),
    ),
  );
  router.post(API_ROUTES.loginEnrolmentConfirm, (ctx) =>
    signInStep(ctx, async () =>
      completeEnrolment(deps, await validateBody(ctx, secondFactorSchema), originOf(ctx)),
    ),
  );
  // The sign-in page shows the demo account's hint only when there is one:
  // demo mode, which the configuration refuses in production.
  router.get(API_ROUTES.loginOptions, (ctx) => {
    const body: LoginOptionsResponse = {
      demo: demo.enabled ? { username: demo.username, password: demo.password } : null,
    };
    ctx.body = body;
  });
  return router;
}

function publicUser({ id, username, email, role }: AuthUserDto): AuthUserDto {
  return { id, username, email, role };
}

/**
 * The signed-in user's own account: who they are, their password, their
 * second factor, and signing out everywhere else. Each change that could
 * take the account from its owner asks for the password (or a current code)
 * in the same request: a stolen session alone does not suffice.
 */
export function accountRoutes(deps: LoginDeps): Router {
  const router = new Router();
  router.get(API_ROUTES.me, (ctx) => {
    const body: MeResponse = { user: publicUser(sessionUser(ctx.state)) };
    ctx.body = body;
  });
  router.put(API_ROUTES.myPassword, async (ctx) => {
    const user = sessionUser(ctx.state);
    const input = await validateBody(ctx, passwordChangeSchema);
    ctx.body = await withFieldReasons(ctx, () =>
      changePassword(deps, user.id, input, originOf(ctx)),
    );
    audit(ctx, 'auth.password-change', { type: 'user', id: user.id, label: user.username });
  });

  router.get(API_ROUTES.myTwoFactor, async (ctx) => {
    ctx.body = await twoFactorStatus(deps, sessionUser(ctx.state).id);
  });
  router.post(API_ROUTES.myTwoFactorSetup, async (ctx) => {
    const input = await validateBody(ctx, twoFactorSetupSchema);
    ctx.body = await withFieldReasons(ctx, () =>
      startOwnSetup(deps, sessionUser(ctx.state).id, input, ctx.ip),
    );
    unaudited(ctx);
  });
  router.post(API_ROUTES.myTwoFactorConfirm, async (ctx) => {
    const user = sessionUser(ctx.state);
    const input = await validateBody(ctx, twoFactorConfirmSchema);
    ctx.body = await withFieldReasons(ctx, () => confirmOwnSetup(deps, user.id, input, ctx.ip));
    audit(ctx, 'auth.two-factor-enable', { type: 'user', id: user.id, label: user.username });
  });
  router.post(API_ROUTES.myRecoveryCodes, async (ctx) => {
    const user = sessionUser(ctx.state);
    const proof = await validateBody(ctx, reauthenticationSchema);
    ctx.body = await withFieldReasons(ctx, () => renewRecoveryCodes(deps, user.id, proof, ctx.ip));
    audit(ctx, 'auth.recovery-codes-renew', { type: 'user', id: user.id, label: user.username });
  });
  router.post(API_ROUTES.myTwoFactorDisable, async (ctx) => {
    const user = sessionUser(ctx.state);
    const proof = await validateBody(ctx, reauthenticationSchema);
    await withFieldReasons(ctx, () => disableOwnTwoFactor(deps, user.id, proof, ctx.ip));
    audit(ctx, 'auth.two-factor-disable', { type: 'user', id: user.id, label: user.username });
    ctx.status = 204;
  });
  router.post(API_ROUTES.myOtherSessionsEnd, async (ctx) => {
    const user = sessionUser(ctx.state);
    const proof = await validateBody(ctx, reauthenticationSchema);
    await withFieldReasons(ctx, () => confirmAccountOwner(deps, user.id, proof, ctx.ip));
    await endOtherSessions(user.id, user.sessionId);
    audit(ctx, 'auth.sessions-end-others', { type: 'user', id: user.id, label: user.username });
    ctx.status = 204;
  });
  return router;
}
