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
  media: '/admin/media',
  audience: '/admin/audience',
  people: '/admin/people',
  users: '/admin/users',
  contacts: '/admin/contacts',
  clients: '/admin/clients',
  leads: '/admin/leads',
  analytics: '/admin/analytics',
  settings: '/admin/settings',
} as const;

export type AdminSection = Exclude<keyof typeof ADMIN_PATHS, 'index' | 'login'>;

/** The audience section's tabs: the lists, the CSV imports, the suppression list. */
export const AUDIENCE_TABS = ['lists', 'imports', 'suppression'] as const;
export type AudienceTab = (typeof AUDIENCE_TABS)[number];

export function adminAudiencePath(tab: AudienceTab = 'lists'): string {
  return tab === 'lists' ? ADMIN_PATHS.audience : `${ADMIN_PATHS.audience}/${tab}`;
}

/** One enquiry's detail view, over the contacts list. */
export function adminContactPath(contactId: string): string {
  return `${ADMIN_PATHS.contacts}/${encodeURIComponent(contactId)}`;
}

/** One campaign's results. */
export function adminCampaignReportPath(campaignId: string): string {
  return `${ADMIN_PATHS.campaigns}/${encodeURIComponent(campaignId)}/report`;
}

/** One person's page: `key` is the normalised address the people list gives. */
export function adminPersonPath(key: string): string {
  return `${ADMIN_PATHS.people}/${encodeURIComponent(key)}`;
}
