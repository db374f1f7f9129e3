import {
  DEFAULT_RETENTION_SETTINGS,
  DEFAULT_TRACKING_SETTINGS,
  DEFAULT_PLACEHOLDER_FALLBACKS,
  DEFAULT_TEMPLATE,
  type ActivityLogDto,
  type AgencySettingsDto,
  type CampaignAudienceDto,
  type CampaignPersonResultDto,
  type CampaignReportDto,
  type CampaignDto,
  type CampaignProgressDto,
  type CampaignRecipientDto,
  type CampaignSettingsDto,
  type CampaignTemplateDto,
  type ClientDto,
  type ContactDetailDto,
  type ContactDto,
  type EnquiryTrendDto,
  type ImportDto,
  type KeysetPage,
  type LeadDto,
  type MailingListDto,
  type Page,
  type Role,
  type StatsDto,
  type SuppressionDto,
  type UserDto,
} from '@agency/contracts';

/** Admin API answers for frontend tests: valid records; override only what a test is about. */

let sequence = 0;
/** A 24-hex id, as the API's ids are. */
export function testId(): string {
  sequence += 1;
  return sequence.toString(16).padStart(24, '0');
}

const CREATED = '2026-05-04T09:30:00.000Z';

export function pageOf<T>(items: T[], overrides: Partial<Page<T>> = {}): Page<T> {
  return { items, total: items.length, page: 1, pageSize: 25, ...overrides };
}

/** One page of a list paged by position: the first and last, unless overridden. */
export function keysetPageOf<T>(items: T[], overrides: Partial<KeysetPage<T>> = {}): KeysetPage<T> {
  return {
    items,
    total: items.length,
    totalKind: 'exact',
    pageSize: 25,
    next: null,
    previous: null,
    ...overrides,
  };
}

export function buildUser(overrides: Partial<UserDto> = {}): UserDto {
  const id = overrides.id ?? testId();
  return {
    id,
    username: `user-${id.slice(-4)}`,
    email: `user-${id.slice(-4)}@agency.test`,
    role: 'viewer',
    twoFactorEnabled: false,
    lastLoginAt: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildContact(overrides: Partial<ContactDto> = {}): ContactDto {
  return {
    id: testId(),
    firstName: 'Amira',
    lastName: 'Ben Salah',
    email: 'amira@example.tn',
    phone: '+216 20 123 456',
    service: 'web-design',
    message: 'We need a new website for our bakery chain.',
    locale: 'fr',
    status: 'new',
    mailState: 'sent',
    acknowledgementState: 'sent',
    createdAt: CREATED,
    ...overrides,
  };
}

export function buildContactDetail(overrides: Partial<ContactDetailDto> = {}): ContactDetailDto {
  return {
    ...buildContact(),
    mailSentAt: '2026-05-04T09:30:05.000Z',
    mailError: null,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildClient(overrides: Partial<ClientDto> = {}): ClientDto {
  return {
    id: testId(),
    companyName: 'Carthage Bakeries',
    contactPerson: 'Sami Trabelsi',
    email: 'sami@carthage-bakeries.tn',
    website: 'https://carthage-bakeries.tn',
    monthlyBudget: 1500.5,
    industry: 'retail',
    status: 'active',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildLead(overrides: Partial<LeadDto> = {}): LeadDto {
  return {
    id: testId(),
    name: 'Leila Mansour',
    email: 'leila@example.tn',
    company: 'Mansour Textiles',
    source: 'manual',
    status: 'new',
    estimatedValue: 12000,
    assignee: null,
    contactId: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildCampaign(overrides: Partial<CampaignDto> = {}): CampaignDto {
  return {
    id: testId(),
    name: 'Spring offer',
    subject: 'Our spring packages',
    content: '<p>Discover our packs.</p>',
    recipientType: 'all',
    listIds: [],
    segmentIds: [],
    enquiryLawfulBasis: null,
    defaultLocale: 'en',
    translations: [],
    placeholderFallbacks: { ...DEFAULT_PLACEHOLDER_FALLBACKS },
    templateId: null,
    scheduledAt: null,
    sendingWindow: null,
    ratePerMinute: null,
    fromAddress: null,
    replyTo: null,
    tracking: { opens: true, clicks: true, mode: null, keyDestroyed: false },
    publishToArchive: false,
    rates: null,
    status: 'draft',
    total: 0,
    sentCount: 0,
    failedCount: 0,
    queuedAt: null,
    startedAt: null,
    finishedAt: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildTemplate(overrides: Partial<CampaignTemplateDto> = {}): CampaignTemplateDto {
  return {
    ...DEFAULT_TEMPLATE,
    id: testId(),
    name: 'Autumn',
    brandColor: '#b45309',
    builtIn: false,
    usedBy: 0,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function buildStats(overrides: Partial<StatsDto> = {}): StatsDto {
  return {
    totalContacts: 40,
    todayContacts: 3,
    totalSubscribers: 120,
    totalCampaigns: 5,
    thisWeekContacts: 11,
    contactsByService: [
      { service: 'web-design', count: 18 },
      { service: 'meta-ads', count: 10 },
      { service: 'branding', count: 6 },
      { service: 'social-media', count: 4 },
      { service: 'content-creation', count: 2 },
      { service: 'analytics', count: 0 },
    ],
    timeZone: 'Africa/Tunis',
    ...overrides,
  };
}

export function buildEnquiryTrend(counts: number[] = [0, 2, 1, 4]): EnquiryTrendDto {
  return {
    timeZone: 'Africa/Tunis',
    days: counts.map((count, index) => ({
      date: `2026-05-${String(index + 1).padStart(2, '0')}`,
      count,
    })),
  };
}

export function buildActivity(overrides: Partial<ActivityLogDto> = {}): ActivityLogDto {
  return {
    id: testId(),
    actor: { id: testId(), username: 'nadia' },
    action: 'client.create',
    target: { type: 'client', id: testId(), label: 'Carthage Bakeries' },
    time: CREATED,
    ip: '127.0.0.1',
    ...overrides,
  };
}

/** A send's progress as GET /campaigns/{id}/progress answers it (a send just started). */
export function buildProgress(overrides: Partial<CampaignProgressDto> = {}): CampaignProgressDto {
  return {
    id: testId(),
    status: 'sending',
    total: 0,
    sentCount: 0,
    failedCount: 0,
    pendingCount: 0,
    percent: 0,
    ratePerSecond: 0,
    windowOpensAt: null,
    round: 1,
    startedAt: '2026-05-04T08:00:00.000Z',
    finishedAt: null,
    ...overrides,
  };
}

/** One line of a campaign's ledger: a recipient the SMTP server refused. */
export function buildRecipient(
  overrides: Partial<CampaignRecipientDto> = {},
): CampaignRecipientDto {
  return {
    email: `recipient-${testId().slice(-4)}@example.com`,
    state: 'failed',
    reason: '550 5.1.1 Mailbox unavailable',
    attempts: 1,
    round: 1,
    at: '2026-05-04T08:00:30.000Z',
    mailEvent: null,
    ...overrides,
  };
}

export function buildAudience(overrides: Partial<CampaignAudienceDto> = {}): CampaignAudienceDto {
  return {
    all: 150,
    contacts: 40,
    subscribers: 120,
    segments: 0,
    lists: 0,
    withoutConsent: { contacts: 25, all: 20 },
    ...overrides,
  };
}

export function buildMailingList(overrides: Partial<MailingListDto> = {}): MailingListDto {
  return {
    id: testId(),
    name: 'Expo guests',
    description: 'People met at the spring expo',
    public: false,
    localized: {
      en: { name: '', description: null },
      fr: { name: '', description: null },
      ar: { name: '', description: null },
    },
    memberCount: 1200,
    state: 'active',
    deletion: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

/** An uploaded CSV file waiting for its columns; override `status` and `counts` for later steps. */
export function buildImport(overrides: Partial<ImportDto> = {}): ImportDto {
  return {
    id: testId(),
    fileName: 'guests.csv',
    size: 2048,
    encoding: 'utf-8',
    rowCount: 3,
    columns: ['Email', 'First name', 'Company'],
    preview: [
      ['ada@example.com', 'Ada', 'Analytical'],
      ['grace@example.com', 'Grace', 'Navy'],
    ],
    suggestedMapping: { email: 0, firstName: 1 },
    status: 'uploaded',
    list: null,
    mapping: null,
    hasHeader: true,
    counts: { read: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, invalid: 0 },
    reportLines: 0,
    error: null,
    by: { id: testId(), username: 'manager-user' },
    createdAt: CREATED,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

export function buildSuppression(overrides: Partial<SuppressionDto> = {}): SuppressionDto {
  const email = overrides.email ?? `gone-${testId().slice(-4)}@example.com`;
  return {
    key: email.toLowerCase(),
    email,
    reason: 'hard-bounce',
    source: 'ses',
    at: CREATED,
    campaign: null,
    detail: '550 5.1.1 user unknown',
    by: null,
    ...overrides,
  };
}

/** A signed-in user of this role, as the session stores it. */
export function sessionUser(role: Role = 'admin') {
  return {
    id: '00000000000000000000beef',
    username: `${role}-user`,
    email: `${role}@agency.test`,
    role,
  };
}

export function buildAgencySettings(overrides: Partial<AgencySettingsDto> = {}): AgencySettingsDto {
  return {
    languages: {
      en: { agencyName: 'Agency', header: '', footer: 'You receive this mail because you asked.' },
      fr: {
        agencyName: 'Agence',
        header: '',
        footer: 'Vous recevez cet e-mail car vous l’avez demandé.',
      },
      ar: { agencyName: 'الوكالة', header: '', footer: 'تصلك هذه الرسالة لأنك طلبتها.' },
    },
    senders: [
      { name: 'Agency News', address: 'news@agency.test' },
      { name: 'Agency Team', address: 'team@agency.test' },
    ],
    defaultFrom: 'news@agency.test',
    replyTo: 'hello@agency.test',
    postalAddress: '',
    timeZone: 'Africa/Tunis',
    defaultLocale: 'en',
    tracking: { ...DEFAULT_TRACKING_SETTINGS },
    retention: { ...DEFAULT_RETENTION_SETTINGS },
    retentionReport: null,
    updatedAt: null,
    updatedBy: null,
    ...overrides,
  };
}

/** The campaign editor's settings, from the agency's settings as the API builds them. */
export function buildCampaignSettings(
  overrides: Partial<CampaignSettingsDto> = {},
): CampaignSettingsDto {
  const agency = buildAgencySettings();
  return {
    timeZone: agency.timeZone,
    senderName: agency.languages.en.agencyName,
    maxRatePerMinute: 600,
    senders: agency.senders,
    defaultFrom: agency.defaultFrom,
    replyTo: agency.replyTo,
    defaultLocale: agency.defaultLocale,
    tracking: agency.tracking,
    ...overrides,
  };
}

/** A sent campaign's report with a little of everything: people and machines, two links, two languages. */
export function buildCampaignReport(overrides: Partial<CampaignReportDto> = {}): CampaignReportDto {
  return {
    id: 'c-sent',
    name: 'Winter news',
    tracking: { opens: true, clicks: true, mode: 'anonymous', keyDestroyed: false },
    delivery: {
      sent: 120,
      failed: 2,
      delivered: 115,
      bounced: { hard: 3, soft: 2 },
      complaints: 1,
      unsubscribes: 4,
    },
    opens: { people: { unique: 48, total: 71 }, machines: { unique: 19, total: 23 }, implied: 6 },
    clicks: { people: { unique: 17, total: 25 }, scanners: { unique: 5, total: 12 } },
    rates: { open: 41.7, click: 14.8 },
    timeline: [
      { at: '2026-05-04T08:00:00.000Z', bucket: 'hour', opens: 30, clicks: 9 },
      { at: '2026-05-04T09:00:00.000Z', bucket: 'hour', opens: 11, clicks: 6 },
      { at: '2026-05-07T00:00:00.000Z', bucket: 'day', opens: 30, clicks: 10 },
    ],
    links: [
      {
        index: 0,
        url: 'https://agency.test/offers',
        people: { unique: 12, total: 20 },
        scanners: { unique: 5, total: 6 },
      },
      {
        index: 1,
        url: 'https://agency.test/contact',
        people: { unique: 5, total: 5 },
        scanners: { unique: 5, total: 6 },
      },
    ],
    languages: [
      { locale: 'en', delivered: 80, opened: 30, clicked: 12 },
      { locale: 'ar', delivered: 35, opened: 18, clicked: 5 },
    ],
    sources: [
      {
        kind: 'list',
        listId: 'l-clients',
        listName: 'Clients 2026',
        segmentId: null,
        segmentName: null,
        delivered: 90,
        opened: 40,
        clicked: 14,
        rates: { open: 44.4, click: 15.6 },
      },
      {
        kind: 'list',
        listId: 'l-gone',
        listName: null,
        segmentId: null,
        segmentName: null,
        delivered: 25,
        opened: 8,
        clicked: 3,
        rates: { open: 32, click: 12 },
      },
    ],
    startedAt: '2026-05-04T07:58:00.000Z',
    finishedAt: '2026-05-04T08:10:00.000Z',
    ...overrides,
  };
}

export function buildPersonResult(
  overrides: Partial<CampaignPersonResultDto> = {},
): CampaignPersonResultDto {
  return {
    email: 'amira@example.tn',
    locale: 'fr',
    opened: true,
    openImplied: false,
    firstOpenAt: '2026-05-04T08:12:00.000Z',
    opens: 2,
    clickedLinks: [{ index: 0, url: 'https://agency.test/offers', at: '2026-05-04T08:13:00.000Z' }],
    clicks: 1,
    ...overrides,
  };
}
