// The module's surface without HTTP or argon2: what the worker may reach through src/store.ts.
export { findUserByEmail } from './user-lookup';
