import { API_ROUTES, CAMPAIGN_CONTROL_ROUTES, apiPath, matchesRoute } from './api-routes';

describe('apiPath', () => {
  it('fills each parameter of a route', () => {
    expect(apiPath(API_ROUTES.campaignSend, { id: '65f0c0ffee' })).toBe(
      '/api/admin/campaigns/65f0c0ffee/send',
    );
    expect(apiPath(API_ROUTES.users)).toBe('/api/admin/users');
  });

  it('encodes a value, so an id cannot add a segment or a query', () => {
    expect(apiPath(API_ROUTES.lead, { id: '../users?x=1' })).toBe(
      '/api/admin/leads/..%2Fusers%3Fx%3D1',
    );
  });
});

describe('matchesRoute', () => {
  it('takes any one segment for a parameter, and nothing else', () => {
    expect(matchesRoute(API_ROUTES.campaign, '/api/admin/campaigns/abc')).toBe(true);
    expect(matchesRoute(API_ROUTES.campaign, '/api/admin/campaigns')).toBe(false);
    expect(matchesRoute(API_ROUTES.campaign, '/api/admin/campaigns/')).toBe(false);
    expect(matchesRoute(API_ROUTES.campaign, '/api/admin/campaigns/abc/send')).toBe(false);
    expect(matchesRoute(API_ROUTES.campaign, '/api/admin/clients/abc')).toBe(false);
  });
});

describe('API_ROUTES', () => {
  it('names every staff route below the admin prefix, and each address once', () => {
    const routes: string[] = Object.values(API_ROUTES);
    expect(new Set(routes).size).toBe(routes.length);
    const publicRoutes = [
      API_ROUTES.health,
      API_ROUTES.contactForm,
      API_ROUTES.newsletter,
      API_ROUTES.newsletterConfirm,
      API_ROUTES.newsletterUnsubscribe,
      API_ROUTES.publicLists,
      API_ROUTES.preferences,
      API_ROUTES.preferencesUnsubscribe,
      API_ROUTES.preferencesPrivacyLink,
      API_ROUTES.privacyLinkCheck,
      API_ROUTES.privacyLinkDownload,
      API_ROUTES.privacyLinkErasure,
      API_ROUTES.mailEvents,
      API_ROUTES.trackOpen,
      API_ROUTES.trackClick,
      API_ROUTES.archive,
      API_ROUTES.archiveCampaign,
      API_ROUTES.archiveFeed,
      API_ROUTES.archiveIndexPage,
      API_ROUTES.archiveCampaignPage,
      API_ROUTES.archiveSitemap,
      API_ROUTES.mediaFile,
      API_ROUTES.admin,
    ];
    for (const route of routes.filter((route) => !publicRoutes.includes(route as never))) {
      expect(route.startsWith(`${API_ROUTES.admin}/`)).toBe(true);
    }
  });

  it('gives each campaign control its own route below one campaign', () => {
    for (const [control, route] of Object.entries(CAMPAIGN_CONTROL_ROUTES)) {
      expect(route).toBe(`${API_ROUTES.campaign}/${control}`);
    }
  });
});
