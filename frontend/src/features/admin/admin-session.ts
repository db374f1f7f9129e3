import { readStorage, removeStorage, STORAGE_KEYS } from '../../lib/storage';

export interface AdminUser {
  username: string;
  email: string;
  role: string;
}

export interface AdminSession {
  token: string;
  user: AdminUser;
}

function isAdminUser(value: unknown): value is AdminUser {
  if (typeof value !== 'object' || value === null) return false;
  const { username, email, role } = value as Record<string, unknown>;
  return typeof username === 'string' && typeof email === 'string' && typeof role === 'string';
}

export function hasAdminToken(): boolean {
  return Boolean(readStorage(STORAGE_KEYS.adminToken));
}

/** The stored session, or null when the token is missing or the user data is unreadable (spec 4). */
export function readAdminSession(): AdminSession | null {
  const token = readStorage(STORAGE_KEYS.adminToken);
  const rawUser = readStorage(STORAGE_KEYS.adminUser);
  if (!token || !rawUser) return null;
  try {
    const user: unknown = JSON.parse(rawUser);
    return isAdminUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

export function clearAdminSession(): void {
  removeStorage(STORAGE_KEYS.adminToken);
  removeStorage(STORAGE_KEYS.adminUser);
}
