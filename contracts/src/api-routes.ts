/**
 * Every address of the API, named once: the Koa routers mount these
 * patterns, and the dashboard, the e2e helpers and the benches call them
 * through `apiPath`. A `:name` segment is a parameter.
 */
export const API_ROUTES = {
  health: '/api/health',
  /** The public enquiry form. */
  contactForm: '/api/contact',
  newsletter: '/api/newsletter',
  newsletterConfirm: '/api/newsletter/confirm',
  /** Also each newsletter mail's List-Unsubscribe target. */
  newsletterUnsubscribe: '/api/newsletter/unsubscribe',
  /** The public lists a visitor may choose on sign-up, named in one language (`?lang=`). */
  publicLists: '/api/newsletter/lists',
  /**
   * The preference page's calls, authenticated by the manage link's token
   * alone: POST reads (the token stays out of URLs and logs), PUT saves the
   * lists and language, and `…/unsubscribe` leaves everything.
   */
  preferences: '/api/newsletter/preferences',
  preferencesUnsubscribe: '/api/newsletter/preferences/unsubscribe',
  /** The preference page asks for a download or erasure link, mailed to the address. */
  preferencesPrivacyLink: '/api/newsletter/preferences/privacy-link',
  /**
   * A mailed privacy link's calls, authenticated by its own short-lived,
   * single-use token: check it (changes nothing), download the data, or
   * start the erasure. The last two spend the link.
   */
  privacyLinkCheck: '/api/newsletter/privacy-link/check',
  privacyLinkDownload: '/api/newsletter/privacy-link/download',
  privacyLinkErasure: '/api/newsletter/privacy-link/erasure',
  /** A campaign mail's open pixel (a 1x1 GIF): the token names the campaign and the recipient's key. */
  trackOpen: '/api/t/o/:token',
  /** A campaign mail's tracking link: redirects to the link table's target for the token's index. */
  trackClick: '/api/t/c/:token',
  /** The public campaign archive, read-only, per language: index, one campaign, Atom feed, pages. */
  archive: '/api/archive/:locale',
  archiveCampaign: '/api/archive/:locale/campaigns/:id',
  archiveFeed: '/api/archive/:locale/feed.xml',
  archiveIndexPage: '/api/archive/:locale/pages',
  archiveCampaignPage: '/api/archive/:locale/pages/:id',
  archiveSitemap: '/api/archive/sitemap.xml',
  /**
   * A media library image (`<id>.<ext>`, `<id>-thumb.<ext>`): public, immutable,
   * cached for a year. Mails link to it absolutely, through the web server.
   */
  mediaFile: '/api/media/:file',

  /** Every staff endpoint lives below this prefix, and only those need a token. */
  admin: '/api/admin',
  login: '/api/admin/login',
  loginOptions: '/api/admin/login-options',
  loginSecondFactor: '/api/admin/login/second-factor',
  loginEnrolment: '/api/admin/login/enrolment',
  loginEnrolmentConfirm: '/api/admin/login/enrolment/confirm',
  logout: '/api/admin/logout',
  passwordReset: '/api/admin/password-reset',
  passwordResetConfirm: '/api/admin/password-reset/confirm',

  me: '/api/admin/me',
  myPassword: '/api/admin/me/password',
  myTwoFactor: '/api/admin/me/two-factor',
  myTwoFactorSetup: '/api/admin/me/two-factor/setup',
  myTwoFactorConfirm: '/api/admin/me/two-factor/confirm',
  myRecoveryCodes: '/api/admin/me/two-factor/recovery-codes',
  myTwoFactorDisable: '/api/admin/me/two-factor/disable',
  mySessions: '/api/admin/me/sessions',
  /** "Sign out everywhere else": a POST, as it carries the password. */
  myOtherSessionsEnd: '/api/admin/me/sessions/end-others',
  mySession: '/api/admin/me/sessions/:id',

  stats: '/api/admin/stats',
  statsEnquiries: '/api/admin/stats/enquiries',

  contacts: '/api/admin/contacts',
  contactsExport: '/api/admin/contacts/export',
  contact: '/api/admin/contacts/:id',
  contactConvert: '/api/admin/contacts/:id/convert',

  users: '/api/admin/users',
  user: '/api/admin/users/:id',
  userTwoFactor: '/api/admin/users/:id/two-factor',
  userSessions: '/api/admin/users/:id/sessions',

  clients: '/api/admin/clients',
  client: '/api/admin/clients/:id',
  leads: '/api/admin/leads',
  lead: '/api/admin/leads/:id',
  activityLogs: '/api/admin/activity-logs',

  campaigns: '/api/admin/campaigns',
  campaignAudience: '/api/admin/campaigns/audience',
  campaign: '/api/admin/campaigns/:id',
  campaignSend: '/api/admin/campaigns/:id/send',
  /** Publish a campaign to the public archive, or take it off (any status; shown once sent). */
  campaignArchive: '/api/admin/campaigns/:id/archive',
  /** What a sent campaign did: delivery, opens, clicks, links, languages, timeline. */
  campaignReport: '/api/admin/campaigns/:id/report',
  /** The report as a CSV file. */
  campaignReportExport: '/api/admin/campaigns/:id/report/export',
  /** Who opened and who clicked what (individual mode, a permission of its own); `/export` as CSV. */
  campaignReportPeople: '/api/admin/campaigns/:id/report/people',
  campaignReportPeopleExport: '/api/admin/campaigns/:id/report/people/export',
  campaignProgress: '/api/admin/campaigns/:id/progress',
  campaignRecipients: '/api/admin/campaigns/:id/recipients',
  campaignTest: '/api/admin/campaigns/:id/test',
  campaignPause: '/api/admin/campaigns/:id/pause',
  campaignResume: '/api/admin/campaigns/:id/resume',
  campaignCancel: '/api/admin/campaigns/:id/cancel',
  campaignResendFailed: '/api/admin/campaigns/:id/resend-failed',
  /** The editor's settings: the agency's clock, the sender's name, the global rate cap. */
  campaignSettings: '/api/admin/campaigns/settings',
  campaignSampleRecipients: '/api/admin/campaigns/sample-recipients',
  campaignPreview: '/api/admin/campaigns/preview',
  /** How many of one campaign's audience get each language. */
  campaignLanguages: '/api/admin/campaigns/:id/audience',
  campaignSchedule: '/api/admin/campaigns/:id/schedule',
  campaignUnschedule: '/api/admin/campaigns/:id/unschedule',
  /** A new draft with another campaign's content and audience, none of its sending. */
  campaignDuplicate: '/api/admin/campaigns/:id/duplicate',
  /** Whom test sends may go to besides the staff: an admin's allow-list. */
  testRecipients: '/api/admin/settings/test-recipients',
  /** The agency's name, senders, mail texts, postal address, clock and default language. */
  agencySettings: '/api/admin/agency-settings',
  media: '/api/admin/media',
  mediaItem: '/api/admin/media/:id',
  campaignTemplates: '/api/admin/campaign-templates',
  campaignTemplate: '/api/admin/campaign-templates/:id',
  campaignTemplateDuplicate: '/api/admin/campaign-templates/:id/duplicate',

  lists: '/api/admin/lists',
  list: '/api/admin/lists/:id',
  listMembers: '/api/admin/lists/:id/members',
  listMember: '/api/admin/lists/:id/members/:email',
  /** A CSV file's upload: the body is the file itself. */
  imports: '/api/admin/imports',
  import: '/api/admin/imports/:id',
  importStart: '/api/admin/imports/:id/start',
  importCancel: '/api/admin/imports/:id/cancel',
  importReport: '/api/admin/imports/:id/report',
  /** Everyone the product holds, one row per address (contracts/src/audience/people.ts). */
  people: '/api/admin/people',
  peopleExport: '/api/admin/people/export',
  peopleBulk: '/api/admin/people/bulk',
  /** `:email` is the normalised address, URL-encoded. */
  person: '/api/admin/people/:email',
  /** Everything held about the address, as one JSON file. */
  personData: '/api/admin/people/:email/data',
  /** Erase the address from everything that holds it: a worker job. */
  personErasure: '/api/admin/people/:email/erasure',
  erasure: '/api/admin/erasures/:id',
  /** Saved rules over the people view (contracts/src/audience/segments.ts). */
  segments: '/api/admin/segments',
  segment: '/api/admin/segments/:id',
  /** How many people a rule matches now: the builder's count (POST, the rule as body). */
  segmentCount: '/api/admin/segments/count',
  suppressions: '/api/admin/suppressions',
  suppressionsExport: '/api/admin/suppressions/export',
  suppression: '/api/admin/suppressions/:email',

  /** Bounces and complaints from the sending service: public, each provider signs its calls. */
  mailEvents: '/api/webhooks/mail-events/:provider',

  /** The operators' queue board (bull-board), for admins. */
  queues: '/api/admin/queues',
} as const;

export type ApiRoute = (typeof API_ROUTES)[keyof typeof API_ROUTES];

/** The `:name` parameters of a route pattern. */
export type RouteParams<Pattern extends string> =
  Pattern extends `${string}:${infer Name}/${infer Rest}`
    ? Name | RouteParams<`/${Rest}`>
    : Pattern extends `${string}:${infer Name}`
      ? Name
      : never;

/**
 * The address of one route: each `:name` replaced by its value, encoded, so
 * an id can never add a segment or a query of its own.
 */
export function apiPath<Pattern extends ApiRoute>(
  pattern: Pattern,
  ...params: RouteParams<Pattern> extends never ? [] : [Record<RouteParams<Pattern>, string>]
): string {
  const values: Record<string, string> = params[0] ?? {};
  return pattern.replace(/:(\w+)/g, (_segment, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`apiPath: no value for :${name} in ${pattern}`);
    return encodeURIComponent(value);
  });
}

/** Whether `path` is an address of the route `pattern` (each `:name` one segment). */
export function matchesRoute(pattern: ApiRoute, path: string): boolean {
  const segments = pattern.split('/');
  const given = path.split('/');
  return (
    segments.length === given.length &&
    segments.every((segment, index) =>
      segment.startsWith(':') ? given[index] !== '' : segment === given[index],
    )
  );
}

/** The sending controls of a campaign in progress, each a `POST` to its route. */
export const CAMPAIGN_CONTROL_ROUTES = {
  pause: API_ROUTES.campaignPause,
  resume: API_ROUTES.campaignResume,
  cancel: API_ROUTES.campaignCancel,
  'resend-failed': API_ROUTES.campaignResendFailed,
} as const;
export type CampaignControl = keyof typeof CAMPAIGN_CONTROL_ROUTES;
