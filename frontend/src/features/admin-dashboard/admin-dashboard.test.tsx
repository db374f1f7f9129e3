import { ROLE_PERMISSIONS } from '@agency/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import {
  buildCampaign,
  buildContact,
  buildEnquiryTrend,
  buildStats,
  pageOf,
} from '../../testing/admin-factory';
import { findElement, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';
import { http } from 'msw';
import { ADMIN } from '../../testing/handlers/admin-handlers';

const figure = (label: string) =>
  screen.getByRole('heading', { level: 2, name: label }).parentElement as HTMLElement;

describe('Dashboard', () => {
  it('shows the four figures, the latest five contacts with their status, and the services', async () => {
    server.use(
      http.get(`${ADMIN}/stats`, () =>
        HttpResponse.json(
          buildStats({
            totalContacts: 40,
            todayContacts: 3,
            totalSubscribers: 120,
            totalCampaigns: 5,
            thisWeekContacts: 11,
            // More than the total (a contact counted while the total was read): capped.
            contactsByService: [
              { service: 'web-design', count: 50 },
              { service: 'meta-ads', count: 10 },
            ],
          }),
        ),
      ),
    );
    const { handler, calls } = recordAdminCalls('get', '/contacts', () =>
      HttpResponse.json(
        pageOf(
          Array.from({ length: 5 }, (_, index) =>
            buildContact({ firstName: `Person${index}`, status: index === 0 ? 'new' : 'archived' }),
          ),
        ),
      ),
    );
    server.use(handler);
    await renderAdmin('/admin/dashboard');

    await screen.findByText('40', {}, SECTION_LOAD);
    expect(figure('Total Contacts')).toHaveTextContent('+3 today');
    expect(figure('Newsletter Subscribers')).toHaveTextContent('120');
    expect(figure('Email Campaigns')).toHaveTextContent('5');
    expect(figure("This Week's Contacts")).toHaveTextContent('11');

    const latest = await screen.findByRole('list', { name: 'Latest contacts' });
    expect(within(latest).getAllByRole('link')).toHaveLength(5);
    expect(within(latest).getByText('New')).toBeInTheDocument();
    expect(calls[0]?.url.searchParams.get('pageSize')).toBe('5');
    expect(calls[0]?.url.searchParams.get('sort')).toBe('-createdAt');

    const bars = screen.getAllByRole('progressbar');
    const web = bars.find((bar) => bar.getAttribute('aria-label') === 'Web Design & Development');
    const meta = bars.find((bar) => bar.getAttribute('aria-label') === 'Meta Ads');
    expect(web).toHaveAttribute('aria-valuenow', '100');
    expect(meta).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('50 of 40')).toBeInTheDocument();
  });

  it('lists three latest contacts on a phone, without the tabs', async () => {
    const { handler, calls } = recordAdminCalls('get', '/contacts', () =>
      HttpResponse.json(pageOf([buildContact(), buildContact(), buildContact()])),
    );
    server.use(handler);
    await renderAdmin('/admin/dashboard', { mobile: true });

    const latest = await screen.findByRole('list', { name: 'Latest contacts' }, SECTION_LOAD);
    expect(within(latest).getAllByRole('link')).toHaveLength(3);
    expect(calls[0]?.url.searchParams.get('pageSize')).toBe('3');
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
  });

  it('says so when there are no enquiries yet, and when the figures cannot be loaded', async () => {
    server.use(adminList('/contacts', []), adminFailure('get', '/stats', 500));
    const { user } = await renderAdmin('/admin/dashboard', { mobile: true });

    expect(await screen.findByText('No enquiries yet.', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(await screen.findAllByText('The figures could not be loaded.')).toHaveLength(2);
    server.resetHandlers();
    await user.click(screen.getAllByRole('button', { name: 'Try again' })[0] as HTMLElement);
    expect(await screen.findByText('+3 today')).toBeInTheDocument();
  });

  it('notes in demo mode that production asks admins for a second factor, and only then', async () => {
    await renderAdmin('/admin/dashboard');
    await screen.findByText('+3 today', {}, SECTION_LOAD);
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    cleanup();

    server.use(
      http.get(`${ADMIN}/login-options`, () =>
        HttpResponse.json({ demo: { username: 'demo', password: 'demo-password-1' } }),
      ),
    );
    await renderAdmin('/admin/dashboard');
    const note = await screen.findByRole('note', {}, SECTION_LOAD);
    expect(note).toHaveTextContent('Demo mode');
    expect(note).toHaveTextContent(
      'The demo admin signs in with its password alone. In production, admins also enter a code from an authenticator app',
    );
  });

  it('shows placeholders while the figures load', async () => {
    server.use(adminPending('get', '/stats'), adminPending('get', '/contacts'));
    await renderAdmin('/admin/dashboard', { mobile: true });

    await waitFor(() =>
      expect(document.querySelectorAll('[aria-busy="true"]').length).toBeGreaterThan(0),
    );
    expect(figure('Total Contacts')).not.toHaveTextContent(/\d/);
  });

  it('keeps the chosen tab in the address', async () => {
    const { user, location } = await renderAdmin('/admin/dashboard');

    await user.click(screen.getByRole('tab', { name: 'Campaigns' }));

    await waitFor(() => expect(location().search).toBe('?tab=campaigns'));
    // The tab's panel is the Mail Manager's own chunk: the tabs show again once it has loaded.
    expect(
      await screen.findByRole('tab', { name: 'Campaigns', selected: true }, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(await findElement('[role="grid"][aria-label="Campaigns"]')).toBeInTheDocument();
  });
});

describe('Analytics', () => {
  /** A chart's data table: its card shows the heading at once and the table once its data came. */
  const chartTable = async (title: string) => {
    const heading = await screen.findByRole('heading', { level: 2, name: title }, SECTION_LOAD);
    return within(heading.parentElement as HTMLElement).findByRole('table', {}, SECTION_LOAD);
  };

  it('charts enquiries per day, by service, and the results of sent campaigns', async () => {
    server.use(
      http.get(`${ADMIN}/stats/enquiries`, () => HttpResponse.json(buildEnquiryTrend([1, 0, 4]))),
      adminList('/campaigns', [
        buildCampaign({ name: 'Draft only' }),
        buildCampaign({ name: 'Winter news', status: 'sent', sentCount: 118, failedCount: 2 }),
      ]),
    );
    const { handler, calls } = recordAdminCalls('get', '/stats/enquiries', () =>
      HttpResponse.json(buildEnquiryTrend([1, 0, 4])),
    );
    server.use(handler);
    await renderAdmin('/admin/analytics', { mobile: true });

    const perDay = await chartTable('Enquiries per day, last 30 days');
    expect(within(perDay).getAllByRole('row')).toHaveLength(4);
    expect(within(perDay).getByRole('row', { name: 'May 3 4' })).toBeInTheDocument();
    expect(calls[0]?.url.searchParams.get('days')).toBe('30');

    const byService = await chartTable('Enquiries by service');
    expect(
      within(byService).getByRole('row', { name: 'Web Design & Development 18' }),
    ).toBeInTheDocument();

    const results = await chartTable('Campaign results');
    expect(within(results).getByRole('row', { name: 'Winter news 118 2' })).toBeInTheDocument();
    expect(within(results).queryByText('Draft only')).not.toBeInTheDocument();
  });

  it('says when there is nothing to chart, and when a chart cannot be loaded', async () => {
    server.use(
      http.get(`${ADMIN}/stats/enquiries`, () => HttpResponse.json(buildEnquiryTrend([0, 0]))),
      adminList('/campaigns', []),
      adminFailure('get', '/stats', 500),
    );
    await renderAdmin('/admin/analytics', { mobile: true });

    expect(
      await screen.findByText('No enquiries in the last 30 days.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    // The results and the rates of the sends.
    expect(await screen.findAllByText('No campaign has been sent yet.')).toHaveLength(2);
    expect(await screen.findByText('This chart could not be loaded.')).toBeInTheDocument();
  });
});

describe('Campaign rates on the analytics page', () => {
  const RATES_TITLE = 'Open and click rates of the last campaigns';
  const ratesTable = () => screen.findByRole('table', { name: RATES_TITLE }, SECTION_LOAD);
  afterEach(() => jest.restoreAllMocks());

  it("compares the last sends' open and click rates, each name a link to its report", async () => {
    const tracked = buildCampaign({
      name: 'Winter news',
      status: 'sent',
      sentCount: 120,
      rates: { open: 41.7, click: 12.5 },
    });
    // Opens not counted: the API's 0 must not read as nobody opening.
    const clicksOnly = buildCampaign({
      name: 'Spring sale',
      status: 'sent',
      sentCount: 80,
      tracking: { opens: false, clicks: true, mode: 'anonymous', keyDestroyed: false },
      rates: { open: 0, click: 3 },
    });
    const starting = buildCampaign({ name: 'Just started', status: 'sending', rates: null });
    server.use(
      adminList('/campaigns', [
        starting,
        clicksOnly,
        tracked,
        buildCampaign({ name: 'Draft only', rates: null }),
      ]),
    );
    await renderAdmin('/admin/analytics');

    const table = await ratesTable();
    const rows = within(table).getAllByRole('row');
    // Oldest first, as the chart reads; drafts are not sends.
    expect(rows.map((row) => row.textContent)).toEqual([
      'CampaignOpen rateClick rate',
      'Winter news41.7%12.5%',
      'Spring saleNot tracked3%',
      'Just started——',
    ]);
    expect(within(table).getByRole('link', { name: 'Winter news' })).toHaveAttribute(
      'href',
      `/admin/campaigns/${tracked.id}/report`,
    );
    expect(within(table).getByRole('link', { name: 'Spring sale' })).toHaveAttribute(
      'href',
      `/admin/campaigns/${clicksOnly.id}/report`,
    );
  });

  it("writes the rates in the admin's language and numbering", async () => {
    await i18n.changeLanguage('fr');
    server.use(
      adminList('/campaigns', [
        buildCampaign({ name: 'Hiver', status: 'sent', rates: { open: 41.7, click: 0 } }),
      ]),
    );
    await renderAdmin('/admin/analytics');

    const table = await screen.findByRole(
      'table',
      { name: "Taux d'ouverture et de clic des dernières campagnes" },
      SECTION_LOAD,
    );
    expect(within(table).getByRole('row', { name: /Hiver/ })).toHaveTextContent('Hiver41,7 %0 %');
  });

  it('says when no campaign was sent, and offers to try again when the list fails', async () => {
    server.use(adminFailure('get', '/campaigns', 500));
    const { user } = await renderAdmin('/admin/analytics');

    const heading = await screen.findByRole(
      'heading',
      { level: 2, name: RATES_TITLE },
      SECTION_LOAD,
    );
    const card = heading.parentElement as HTMLElement;
    expect(await within(card).findByText('This chart could not be loaded.')).toBeInTheDocument();
    server.use(adminList('/campaigns', []));
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByText('No campaign has been sent yet.')).toBeInTheDocument();
  });

  it('leaves the campaign charts out, and the campaigns unasked, for a role that may not read campaigns', async () => {
    const { handler, calls } = recordAdminCalls('get', '/campaigns', () =>
      HttpResponse.json(pageOf([buildCampaign({ status: 'sent' })])),
    );
    server.use(handler);
    jest.replaceProperty(
      ROLE_PERMISSIONS,
      'viewer',
      ROLE_PERMISSIONS.viewer.filter((permission) => permission !== 'campaigns:read'),
    );
    await renderAdmin('/admin/analytics', { role: 'viewer' });

    expect(
      await screen.findByRole('heading', { level: 2, name: 'Enquiries by service' }, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: RATES_TITLE })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Campaign results' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
