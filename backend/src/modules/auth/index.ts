export { accountRoutes, loginRoutes, SIGN_IN_PATHS, type LoginRoutesDeps } from './auth.routes';
export { createLoginThrottle, type LoginThrottle } from './login-throttle';
export { createTokenService, type TokenService } from './token.service';
export { unknownUserHash } from './auth.service';
export { secretKeyFrom, totpCodeAt } from './two-factor';
