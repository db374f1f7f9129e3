import Router from '@koa/router';
import { loginSchema, type LoginFailureResponse, type MeResponse } from '@agency/contracts';
import { HttpError } from '../../errors';
import { sessionUser } from '../../middleware/authenticate';
import { validateBody } from '../../middleware/validate';
import { login, type LoginDeps } from './auth.service';

/** The sign-in answer keeps the spec's `success` flag, failures included. */
function asLoginFailure(error: HttpError): LoginFailureResponse {
  return { success: false, ...error.toBody() };
}

/** POST /api/admin/login is public; everything else under /api/admin needs its token. */
export function loginRoutes(deps: LoginDeps): Router {
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
  return router;
}

export function sessionRoutes(): Router {
  const router = new Router();
  router.get('/api/admin/me', (ctx) => {
    const body: MeResponse = { user: sessionUser(ctx.state) };
    ctx.body = body;
  });
  return router;
}
