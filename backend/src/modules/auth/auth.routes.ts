import Router from '@koa/router';
import {
  formatValidationMessage,
  loginSchema,
  passwordChangeSchema,
  type LoginFailureResponse,
  type LoginOptionsResponse,
  type MeResponse,
} from '@agency/contracts';
import type { ApiConfig } from '../../config';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { requestLocale, validateBody } from '../../middleware/validate';
import { changePassword, login, PasswordChangeRefused, type LoginDeps } from './auth.service';

/** The sign-in answer keeps the spec's `success` flag, failures included. */
function asLoginFailure(error: HttpError): LoginFailureResponse {
  return { success: false, ...error.toBody() };
}

export interface LoginRoutesDeps extends LoginDeps {
  demo: ApiConfig['demo'];
}

/**
 * POST /api/admin/login and GET /api/admin/login-options are public;
 * everything else under /api/admin needs its token.
 */
export function loginRoutes({ demo, ...deps }: LoginRoutesDeps): Router {
  const router = new Router();
  router.post('/api/admin/login', async (ctx) => {
    try {
      const input = await validateBody(ctx, loginSchema);
      ctx.body = await login(deps, input, ctx.ip);
    } catch (error: unknown) {
      if (!(error instanceof HttpError)) throw error;
      ctx.status = error.status;
      if (error.headers) ctx.set(error.headers);
      ctx.body = asLoginFailure(error);
    }
  });
  // The sign-in page shows the demo account's hint only when there is one:
  // demo mode, which the configuration refuses in production.
  router.get('/api/admin/login-options', (ctx) => {
    const body: LoginOptionsResponse = {
      demo: demo.enabled ? { username: demo.username, password: demo.password } : null,
    };
    ctx.body = body;
  });
  return router;
}

export function sessionRoutes(deps: LoginDeps): Router {
  const router = new Router();
  router.get('/api/admin/me', (ctx) => {
    const body: MeResponse = { user: sessionUser(ctx.state) };
    ctx.body = body;
  });
  router.put('/api/admin/me/password', async (ctx) => {
    const user = sessionUser(ctx.state);
    const input = await validateBody(ctx, passwordChangeSchema);
    try {
      ctx.body = await changePassword(deps, user.id, input, ctx.ip);
    } catch (error: unknown) {
      if (!(error instanceof PasswordChangeRefused)) throw error;
      throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
        [error.field]: formatValidationMessage({ key: error.reason }, requestLocale(ctx)),
      });
    }
    audit(ctx, 'auth.password-change', { type: 'user', id: user.id, label: user.username });
  });
  return router;
}
