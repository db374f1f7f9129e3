import type { Role } from '@agency/contracts';
import { sessionUser } from './admin-factory';

/** Stores a session as sign-in does (admin_token, admin_user); returns its user. */
export function signInAs(role: Role = 'admin') {
  const user = sessionUser(role);
  window.localStorage.setItem('admin_token', `token-of-${role}`);
  window.localStorage.setItem('admin_user', JSON.stringify(user));
  return user;
}
