export {
  passwordResetRoutes,
  PASSWORD_RESET_PATHS,
  type PasswordResetRoutesDeps,
} from './password-reset.routes';
