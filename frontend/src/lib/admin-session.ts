import { can, isRole, type AuthUserDto, type Permission } from '@agency/contracts';
import { useSyncExternalStore } from 'react';
import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from './storage';

/**
 * The signed-in staff member, kept where the spec puts it: the token under
 * `admin_token`, the user (username, email, role; here also the id) as JSON
 * under `admin_user`. Every part of the app reads it through this module, so
 * a sign-in, a sign-out or an expired token re-renders whoever shows it.
 */
export type AdminUser = Pick<AuthUserDto, 'username' | 'email' | 'role'> &
  Partial<Pick<AuthUserDto, 'id'>>;

export interface AdminSession {
  token: string;
  user: AdminUser;
}

function isAdminUser(value: unknown): value is AdminUser {
  if (typeof value !== 'object' || value === null) return false;
  const { username, email, role, id } = value as Record<string, unknown>;
  return (
    typeof username === 'string' &&
    typeof email === 'string' &&
    isRole(role) &&
    (id === undefined || typeof id === 'string')
  );
}

const listeners = new Set<() => void>();
let expiryNoticeOwed = false;
/** The last session ended by Sign Out: nothing to come back to after the next sign-in. */
let endedBySignOut = false;

function notify(): void {
  for (const listener of listeners) listener();
}

export function hasAdminToken(): boolean {
  return Boolean(readStorage(STORAGE_KEYS.adminToken));
}

// useSyncExternalStore needs the same object while nothing changed.
let cached: { token: string | null; rawUser: string | null; session: AdminSession | null } = {
  token: null,
  rawUser: null,
  session: null,
};

/** The stored session, or null when the token is missing or the user data is unreadable: the dashboard then sends the visitor to sign in. */
export function readAdminSession(): AdminSession | null {
  const token = readStorage(STORAGE_KEYS.adminToken);
  const rawUser = readStorage(STORAGE_KEYS.adminUser);
  if (token === cached.token && rawUser === cached.rawUser) return cached.session;
  let session: AdminSession | null = null;
  if (token && rawUser) {
    try {
      const user: unknown = JSON.parse(rawUser);
      session = isAdminUser(user) ? { token, user } : null;
    } catch {
      session = null;
    }
  }
  cached = { token, rawUser, session };
  return session;
}

export function saveAdminSession({ token, user }: AdminSession): void {
  writeStorage(STORAGE_KEYS.adminToken, token);
  writeStorage(
    STORAGE_KEYS.adminUser,
    JSON.stringify({ id: user.id, username: user.username, email: user.email, role: user.role }),
  );
  expiryNoticeOwed = false;
  endedBySignOut = false;
  notify();
}

function dropAdminSession(): void {
  removeStorage(STORAGE_KEYS.adminToken);
  removeStorage(STORAGE_KEYS.adminUser);
  notify();
}

/** Sign Out: the session ends because its owner asked. */
export function clearAdminSession(): void {
  endedBySignOut = true;
  dropAdminSession();
}

/**
 * Whether the session ended by Sign Out (rather than expiring, or never
 * existing): the frame then sends staff to sign in without remembering the
 * page they left.
 */
export function sessionEndedBySignOut(): boolean {
  return endedBySignOut;
}

/**
 * The API refused the token (expired, revoked). Several calls in flight may
 * all be refused: only the first one, which still finds a session, ends it
 * and owes the staff member one notice.
 */
export function expireAdminSession(): void {
  if (!readAdminSession()) return;
  expiryNoticeOwed = true;
  endedBySignOut = false;
  dropAdminSession();
}

/** True once after an expiry: whoever shows the notice takes it, so it shows once. */
export function takeExpiryNotice(): boolean {
  const owed = expiryNoticeOwed;
  expiryNoticeOwed = false;
  return owed;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this tab's session too.
  const onStorage = ({ key }: StorageEvent) => {
    if (key === null || key === STORAGE_KEYS.adminToken || key === STORAGE_KEYS.adminUser) {
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current session, re-rendering the caller when it starts or ends. */
export function useAdminSession(): AdminSession | null {
  return useSyncExternalStore(subscribe, readAdminSession, () => null);
}

/**
 * Whether the signed-in user's role has a permission of the table in
 * contracts: the server refuses the rest, the dashboard hides or disables it.
 */
export function useAdminCan(permission: Permission): boolean {
  const session = useAdminSession();
  return session ? can(session.user.role, permission) : false;
}

/**
 * Where to go after sign-in: the admin page the visitor was sent away from,
 * never a page outside the admin area (an address in `?next=` must not send
 * anyone to another site).
 */
export function safeAdminReturnPath(next: string | null): string | null {
  if (!next || !next.startsWith('/admin/') || next.startsWith('/admin/login')) return null;
  if (next.includes('//') || next.includes('\\')) return null;
  return next;
}
