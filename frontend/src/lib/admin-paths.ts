/**
 * The admin area's addresses: every section has its own, so links, reloads
 * and the back button work. The shell's navigation, the routes (app/) and
 * links between sections all use these.
 */
export const ADMIN_PATHS = {
  index: '/admin',
  login: '/admin/login',
  dashboard: '/admin/dashboard',
  campaigns: '/admin/campaigns',
  users: '/admin/users',
  contacts: '/admin/contacts',
  clients: '/admin/clients',
  leads: '/admin/leads',
  analytics: '/admin/analytics',
  settings: '/admin/settings',
} as const;

export type AdminSection = Exclude<keyof typeof ADMIN_PATHS, 'index' | 'login'>;

/** One enquiry's detail view, over the contacts list. */
export function adminContactPath(contactId: string): string {
  return `${ADMIN_PATHS.contacts}/${encodeURIComponent(contactId)}`;
}
