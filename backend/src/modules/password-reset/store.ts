// The module's surface without HTTP: what the worker may reach through src/store.ts.
export { findResetRequest, issueResetToken } from './password-reset.service';
export { PasswordResetModel, type PasswordResetDocument } from './password-reset.model';
