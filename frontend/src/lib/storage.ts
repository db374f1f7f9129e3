/**
 * localStorage throws in some privacy modes and sandboxed frames; a preference
 * that cannot be stored must never break the page, so every access goes through here.
 */
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // The preference simply does not survive a reload.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/** Storage keys fixed by the product spec (section 9); other workspaces' tests rely on them. */
export const STORAGE_KEYS = {
  language: 'i18nextLng',
  theme: 'theme',
  adminToken: 'admin_token',
  adminUser: 'admin_user',
} as const;
