/** The password resets' model, for tests' fixtures and assertions only. */
export { PasswordResetModel } from '../password-reset/password-reset.model';
