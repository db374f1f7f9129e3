import type { CampaignReportDto } from '@agency/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildCampaign,
  buildCampaignReport,
  buildPersonResult,
  pageOf,
} from '../../testing/admin-factory';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  adminFailure,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';

jest.setTimeout(60_000);

const REPORT = '/admin/campaigns/c-sent/report';

function serveReport(report: CampaignReportDto = buildCampaignReport()) {
  const { handler, calls } = recordAdminCalls('get', '/campaigns/:id/report', () =>
    HttpResponse.json(report),
  );
  server.use(handler);
  return calls;
}

/** A source row's fields that name no list or segment, with nothing counted. */
const NOT_NAMED = {
  listId: null,
  listName: null,
  segmentId: null,
  segmentName: null,
  delivered: 0,
  opened: 0,
  clicked: 0,
};
const NO_RATES = { open: null, click: null };
const SOURCE_HEADERS = [
  'List or source',
  'Delivered',
  'Opened (people, unique)',
  'Open rate',
  'Clicked (people, unique)',
  'Click rate',
];

function region(name: string | RegExp) {
  return screen.findByRole('region', { name }, SECTION_LOAD);
}

/** A table's rows as their cells' texts, headers included. */
function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

/** Downloads made by saveDownload: the anchors it clicks. */
function catchDownloads() {
  Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:report'), revokeObjectURL: jest.fn() });
  const clicked: HTMLAnchorElement[] = [];
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return { clicked, restore: () => click.mockRestore() };
}

const csv = (name: string) =>
  new HttpResponse('a,b\n', {
    headers: {
      'Content-Type': 'text/csv',
      'Content-Disposition': `attachment; filename="${name}"`,
    },
  });

describe('the report of a campaign', () => {
  it('shows delivery, and people beside machines with unique and total apart', async () => {
    const calls = serveReport();
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Results: Winter news' }, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(calls[0]?.url.pathname).toBe('/api/admin/campaigns/c-sent/report');

    const delivery = await region('Delivery');
    for (const [term, value] of [
      ['Sent', '120'],
      ['Delivered', '115'],
      ['Hard bounces', '3'],
      ['Soft bounces', '2'],
      ['Complaints', '1'],
      ['Unsubscribes', '4'],
    ] as const) {
      const label = within(delivery).getByText(term);
      expect(label.nextElementSibling).toHaveTextContent(value);
    }

    const engagement = await region('Opens and clicks');
    expect(rowsOf(within(engagement).getByRole('table', { name: 'Opens' }))).toEqual([
      ['Who', 'Unique (recipients)', 'Total (events)'],
      ['People', '48', '71'],
      ['Machines (image proxies, security gateways)', '19', '23'],
    ]);
    expect(rowsOf(within(engagement).getByRole('table', { name: 'Clicks' }))).toEqual([
      ['Who', 'Unique (recipients)', 'Total (events)'],
      ['People', '17', '25'],
      ['Scanners (security link checks)', '5', '12'],
    ]);
    expect(within(engagement).getByText(/Includes 6 implied opens/)).toBeInTheDocument();
    expect(within(engagement).getByText('Open rate').nextElementSibling).toHaveTextContent('41.7%');
    expect(within(engagement).getByText('Click rate').nextElementSibling).toHaveTextContent(
      '14.8%',
    );
    // Nobody adds people and machines: 71 + 23 appears nowhere.
    expect(screen.queryByText('94')).not.toBeInTheDocument();
  });

  it('lists each link and each language', async () => {
    serveReport();
    await renderAdmin(REPORT, { role: 'viewer' });
    const links = await screen.findByRole('table', { name: 'Clicks per link' }, SECTION_LOAD);
    expect(rowsOf(links)).toEqual([
      ['Link', 'People, unique', 'People, total', "Share of people's clicks", 'Scanner clicks'],
      ['https://agency.test/offers', '12', '20', '80%', '6'],
      ['https://agency.test/contact', '5', '5', '20%', '6'],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Results per language' }))).toEqual([
      ['Language', 'Delivered', 'Opened (people, unique)', 'Clicked (people, unique)'],
      ['English', '80', '30', '12'],
      ['Arabic', '35', '18', '5'],
    ]);
  });

  it('lists each targeted list, a deleted one by what it is, and the other sources by their kind', async () => {
    serveReport(
      buildCampaignReport({
        sources: [
          ...buildCampaignReport().sources,
          { ...NOT_NAMED, kind: 'unknown', opened: 2, clicked: 1, rates: NO_RATES },
        ],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    const sources = await screen.findByRole(
      'table',
      { name: 'Results per list, segment or source' },
      SECTION_LOAD,
    );
    expect(rowsOf(sources)).toEqual([
      SOURCE_HEADERS,
      ['Clients 2026', '90', '40', '44.4%', '14', '15.6%'],
      ['Deleted list', '25', '8', '32%', '3', '12%'],
      ['Unknown source (mails sent before sources were kept)', '0', '2', '—', '1', '—'],
    ]);
    const section = await region('Lists, segments and sources');
    expect(
      within(section).getByText(
        'A recipient on several lists or segments counts under one of them only.',
      ),
    ).toBeInTheDocument();
  });

  it('lists each targeted segment, a deleted one by what it is, and says which kind was not tracked', async () => {
    const segment = { ...NOT_NAMED, kind: 'segment' as const };
    serveReport(
      buildCampaignReport({
        tracking: { ...buildCampaignReport().tracking, clicks: false },
        sources: [
          {
            ...segment,
            segmentId: 's-fr',
            segmentName: 'Francophones',
            delivered: 40,
            opened: 10,
            rates: { open: 25, click: null },
          },
          { ...segment, segmentId: 's-gone', delivered: 8, rates: { open: 0, click: null } },
        ],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    const sources = await screen.findByRole(
      'table',
      { name: 'Results per list, segment or source' },
      SECTION_LOAD,
    );
    expect(rowsOf(sources)).toEqual([
      SOURCE_HEADERS,
      ['Francophones', '40', '10', '25%', 'Not tracked', 'Not tracked'],
      ['Deleted segment', '8', '0', '0%', 'Not tracked', 'Not tracked'],
    ]);
  });

  it('names a segment and says "Not tracked" in French and Arabic too', async () => {
    serveReport(
      buildCampaignReport({
        tracking: { ...buildCampaignReport().tracking, opens: false },
        sources: [
          {
            ...NOT_NAMED,
            kind: 'segment',
            segmentId: 's-gone',
            delivered: 4,
            clicked: 1,
            rates: { open: null, click: 25 },
          },
        ],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    await region('Lists, segments and sources');
    try {
      for (const [language, label, expected] of [
        [
          'fr',
          'Résultats par liste, segment ou source',
          ['Segment supprimé', 'Non suivi', 'Non suivi'],
        ],
        ['ar', 'النتائج لكل قائمة أو شريحة أو مصدر', ['شريحة محذوفة', 'غير متتبَّع', 'غير متتبَّع']],
      ] as const) {
        await act(() => i18n.changeLanguage(language));
        const table = await screen.findByRole('table', { name: label }, SECTION_LOAD);
        const [name, , opened, openRate] = rowsOf(table)[1] ?? [];
        expect([name, opened, openRate]).toEqual(expected);
      }
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });

  it('names enquiry contacts and subscribers, and says when nothing is counted per list yet', async () => {
    const zero = { ...NOT_NAMED, rates: NO_RATES };
    serveReport(
      buildCampaignReport({
        sources: [
          { ...zero, kind: 'contacts' },
          { ...zero, kind: 'subscribers' },
        ],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    const section = await region('Lists, segments and sources');
    expect(
      within(section).getByText(
        'Figures per list appear once the send has queued every recipient.',
      ),
    ).toBeInTheDocument();
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();

    serveReport(
      buildCampaignReport({
        sources: [
          { ...zero, kind: 'contacts', delivered: 3 },
          { ...zero, kind: 'subscribers', delivered: 2, opened: 1 },
        ],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    const table = await screen.findByRole(
      'table',
      { name: 'Results per list, segment or source' },
      SECTION_LOAD,
    );
    expect(rowsOf(table).map((row) => row[0])).toEqual([
      'List or source',
      'Enquiry contacts',
      'Newsletter subscribers',
    ]);
  });

  it('shows the timeline as a table on demand', async () => {
    serveReport();
    const { user } = await renderAdmin(REPORT, { role: 'viewer' });
    const timeline = await region('Over time');
    expect(within(timeline).queryByRole('table')).not.toBeInTheDocument();
    const toggle = within(timeline).getByRole('button', { name: 'Show as a table' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    const rows = rowsOf(within(timeline).getByRole('table', { name: 'Over time' }));
    expect(rows[0]).toEqual(['When', 'Opens by people', 'Clicks by people']);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      ['30', '9'],
      ['11', '6'],
      ['30', '10'],
    ]);
    expect(within(timeline).getByRole('button', { name: 'Show as a chart' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('says "No opens or clicks yet" before anything was counted', async () => {
    const zero = { unique: 0, total: 0 };
    serveReport(
      buildCampaignReport({
        opens: { people: zero, machines: zero, implied: 0 },
        clicks: { people: zero, scanners: zero },
        rates: { open: 0, click: 0 },
        timeline: [],
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(await screen.findByText('No opens or clicks yet', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Over time' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Delivery' })).toBeInTheDocument();
  });

  it('says when tracking was off, and shows the switches read-only', async () => {
    serveReport(
      buildCampaignReport({
        tracking: { opens: false, clicks: false, mode: null, keyDestroyed: false },
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByText(
        /Opens and clicks were not tracked for this campaign/,
        {},
        SECTION_LOAD,
      ),
    ).toBeInTheDocument();
    const opens = screen.getByRole('switch', { name: 'Track opens' });
    expect(opens).not.toBeChecked();
    expect(opens).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Opens and clicks' })).not.toBeInTheDocument();
  });

  it('says when only clicks were tracked', async () => {
    serveReport(
      buildCampaignReport({
        tracking: { opens: false, clicks: true, mode: 'anonymous', keyDestroyed: false },
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByText('Opens were not tracked for this campaign.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    const engagement = await region('Opens and clicks');
    expect(within(engagement).queryByRole('table', { name: 'Opens' })).not.toBeInTheDocument();
    expect(within(engagement).getByRole('table', { name: 'Clicks' })).toBeInTheDocument();
  });

  it('says when the tracking key was destroyed', async () => {
    serveReport(
      buildCampaignReport({
        tracking: { opens: true, clicks: true, mode: 'anonymous', keyDestroyed: true },
      }),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByText(/tracking key of this campaign was destroyed/, {}, SECTION_LOAD),
    ).toBeInTheDocument();
  });

  it('downloads the report as CSV with the session token', async () => {
    serveReport();
    const { handler, calls } = recordAdminCalls('get', '/campaigns/:id/report/export', () =>
      csv('winter-news-report.csv'),
    );
    server.use(handler);
    const downloads = catchDownloads();
    try {
      const { user } = await renderAdmin(REPORT, { role: 'viewer' });
      await user.click(await screen.findByRole('button', { name: 'Download CSV' }, SECTION_LOAD));
      await waitFor(() => expect(downloads.clicked).toHaveLength(1));
      expect(downloads.clicked[0]?.download).toBe('winter-news-report.csv');
      expect(calls[0]?.url.pathname).toBe('/api/admin/campaigns/c-sent/report/export');
      expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token-of-viewer');
    } finally {
      downloads.restore();
    }
  });

  it('says one implied open in the singular', async () => {
    const report = buildCampaignReport();
    serveReport({ ...report, opens: { ...report.opens, implied: 1 } });
    await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByText(/^Includes 1 implied open: a person who clicked/, {}, SECTION_LOAD),
    ).toBeInTheDocument();
  });

  it('says when the CSV could not be downloaded', async () => {
    serveReport();
    server.use(adminFailure('get', '/campaigns/:id/report/export', 409, { message: 'Not yet' }));
    const { user } = await renderAdmin(REPORT, { role: 'viewer' });
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }, SECTION_LOAD));
    expect(await screen.findByText('The report could not be downloaded')).toBeInTheDocument();
  });

  it('shows a loading state, then an error with a retry', async () => {
    server.use(adminPending('get', '/campaigns/:id/report'));
    const first = await renderAdmin(REPORT, { role: 'viewer' });
    expect(document.querySelector('[aria-busy="true"]')).toBeInTheDocument();
    first.unmount();

    server.use(adminFailure('get', '/campaigns/:id/report', 500));
    const { user } = await renderAdmin(REPORT, { role: 'viewer' });
    expect(
      await screen.findByText('The results could not be loaded.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    serveReport();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await region('Delivery')).toBeInTheDocument();
  });

  it('reads in Arabic at 375 px', async () => {
    serveReport();
    await renderAdmin(REPORT, { role: 'viewer', mobile: true });
    await region('Delivery');
    try {
      await act(() => i18n.changeLanguage('ar'));
      expect(
        await screen.findByRole(
          'heading',
          { level: 1, name: 'النتائج: Winter news' },
          SECTION_LOAD,
        ),
      ).toBeInTheDocument();
      expect(await screen.findByRole('table', { name: 'النقرات لكل رابط' })).toBeInTheDocument();
      const sources = await screen.findByRole('table', {
        name: 'النتائج لكل قائمة أو شريحة أو مصدر',
      });
      expect(within(sources).getByText('قائمة محذوفة')).toBeInTheDocument();
      // The list's own name keeps its own direction inside the Arabic page.
      expect(within(sources).getByText('Clients 2026')).toHaveAttribute('dir', 'auto');
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});

describe('the click map of a campaign', () => {
  it("draws each link's share of people's clicks over the mail", async () => {
    serveReport();
    server.use(
      http.get('/api/admin/campaigns/:id', () =>
        HttpResponse.json(
          buildCampaign({
            id: 'c-sent',
            status: 'sent',
            content:
              '<p><a href="https://agency.test/offers">Offers</a> and ' +
              '<a href="https://agency.test/contact">write to us</a>, ' +
              '<a href="mailto:hello@agency.test">or mail</a></p>',
          }),
        ),
      ),
    );
    await renderAdmin(REPORT, { role: 'viewer' });
    const frame = await screen.findByTitle(
      "The mail with each link's share of people's clicks",
      {},
      SECTION_LOAD,
    );
    const mail = new DOMParser().parseFromString(frame.getAttribute('srcdoc') ?? '', 'text/html');
    const badgeAfter = (href: string) =>
      mail.querySelector(`a[href="${href}"]`)?.nextElementSibling?.textContent;
    expect(badgeAfter('https://agency.test/offers')).toBe('80%');
    expect(badgeAfter('https://agency.test/contact')).toBe('20%');
    expect(mail.querySelectorAll('[data-click-share]')).toHaveLength(2);
    expect(frame).toHaveAttribute('sandbox', '');
  });
});

describe('the individual results of a campaign', () => {
  const individual = buildCampaignReport({
    tracking: { opens: true, clicks: true, mode: 'individual', keyDestroyed: false },
  });

  function servePeople() {
    const { handler, calls } = recordAdminCalls('get', '/campaigns/:id/report/people', () =>
      HttpResponse.json(
        pageOf(
          [
            buildPersonResult(),
            buildPersonResult({
              email: 'karim@example.tn',
              locale: 'ar',
              openImplied: true,
              firstOpenAt: null,
              opens: 0,
            }),
          ],
          { total: 42 },
        ),
      ),
    );
    server.use(handler);
    return calls;
  }

  it('lists who opened and clicked, filtered and searched by the server', async () => {
    serveReport(individual);
    const calls = servePeople();
    const { user } = await renderAdmin(REPORT, { role: 'manager' });
    const grid = await screen.findByRole(
      'grid',
      { name: "Recipients' opens and clicks" },
      SECTION_LOAD,
    );
    expect(await within(grid).findByText('amira@example.tn')).toBeInTheDocument();
    expect(within(grid).getByText('Yes (implied by a click)')).toBeInTheDocument();
    // The API orders the list: no column header claims a sort.
    expect(within(grid).getByRole('columnheader', { name: 'Address' })).not.toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    expect(calls[0]?.url.pathname).toBe('/api/admin/campaigns/c-sent/report/people');
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toEqual({
      filter: 'any',
      page: '1',
      pageSize: '25',
    });

    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Clicked' }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('filter')).toBe('clicked'));

    await user.type(screen.getByRole('searchbox', { name: 'Search by address' }), 'karim');
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('search')).toBe('karim'));
    expect(calls.at(-1)?.url.searchParams.get('filter')).toBe('clicked');
  });

  it('downloads the people CSV of the filter shown', async () => {
    serveReport(individual);
    servePeople();
    const { handler, calls } = recordAdminCalls('get', '/campaigns/:id/report/people/export', () =>
      csv('winter-news-people.csv'),
    );
    server.use(handler);
    const downloads = catchDownloads();
    try {
      const { user } = await renderAdmin(REPORT, { role: 'manager' });
      await user.click(await screen.findByRole('combobox', { name: 'Show' }, SECTION_LOAD));
      await user.click(await screen.findByRole('option', { name: 'Opened' }));
      await user.click(screen.getByRole('button', { name: 'Download people CSV' }));
      await waitFor(() => expect(downloads.clicked).toHaveLength(1));
      expect(downloads.clicked[0]?.download).toBe('winter-news-people.csv');
      expect(calls[0]?.url.searchParams.get('filter')).toBe('opened');
      expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token-of-manager');
    } finally {
      downloads.restore();
    }
  });

  it('is not shown to a role without the permission', async () => {
    serveReport(individual);
    const calls = servePeople();
    await renderAdmin(REPORT, { role: 'viewer' });
    await region('Delivery');
    expect(
      screen.queryByRole('region', { name: 'Who opened and clicked' }),
    ).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('is not shown for a campaign tracked anonymously', async () => {
    serveReport();
    const calls = servePeople();
    await renderAdmin(REPORT, { role: 'manager' });
    await region('Delivery');
    expect(
      screen.queryByRole('region', { name: 'Who opened and clicked' }),
    ).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('results in the campaign list', () => {
  it('offers Results for campaigns that went out, not for drafts, and shows their rates', async () => {
    server.use(
      http.get('/api/admin/campaigns', () =>
        HttpResponse.json(
          pageOf([
            buildCampaign({ name: 'Draft offer' }),
            buildCampaign({
              id: 'c-sent',
              name: 'Winter news',
              status: 'sent',
              total: 120,
              sentCount: 118,
              rates: { open: 41.7, click: null },
            }),
            buildCampaign({
              id: 'c-untracked',
              name: 'Quiet letter',
              status: 'sent',
              sentCount: 40,
              // The API counts nothing for a kind the campaign did not track.
              rates: { open: 0, click: 12.5 },
              tracking: { opens: false, clicks: true, mode: 'anonymous', keyDestroyed: false },
            }),
          ]),
        ),
      ),
    );
    serveReport();
    const { user } = await renderAdmin('/admin/campaigns', { role: 'viewer' });
    const grid = await screen.findByRole('grid', { name: 'Campaigns' }, SECTION_LOAD);
    await within(grid).findByText('Winter news');
    const rows = within(grid).getAllByRole('row');
    const sent = rows.find((row) => row.textContent?.includes('Winter news')) as HTMLElement;
    const draft = rows.find((row) => row.textContent?.includes('Draft offer')) as HTMLElement;
    expect(within(sent).getByText('41.7%')).toBeInTheDocument();
    expect(within(sent).getByText('—')).toBeInTheDocument();
    expect(within(draft).getAllByText('—')).toHaveLength(2);
    const untracked = rows.find((row) => row.textContent?.includes('Quiet letter')) as HTMLElement;
    expect(within(untracked).getByText('Not tracked')).toBeInTheDocument();
    expect(within(untracked).queryByText('0%')).not.toBeInTheDocument();
    expect(within(untracked).getByText('12.5%')).toBeInTheDocument();
    expect(
      within(draft).queryByRole('link', { name: 'Results of Draft offer' }),
    ).not.toBeInTheDocument();

    await user.click(within(sent).getByRole('link', { name: 'Results of Winter news' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Results: Winter news' }, SECTION_LOAD),
    ).toBeInTheDocument();
  });

  it("shows a campaign's rates on its phone card", async () => {
    server.use(
      http.get('/api/admin/campaigns', () =>
        HttpResponse.json(
          pageOf([
            buildCampaign({
              id: 'c-sent',
              name: 'Winter news',
              status: 'sent',
              rates: { open: 41.7, click: 14.8 },
            }),
            buildCampaign({
              id: 'c-untracked',
              name: 'Quiet letter',
              status: 'sent',
              rates: { open: 0, click: 0 },
              tracking: { opens: false, clicks: false, mode: null, keyDestroyed: false },
            }),
          ]),
        ),
      ),
    );
    await renderAdmin('/admin/campaigns', { role: 'viewer', mobile: true });
    expect(
      await screen.findByText('Opens: 41.7% · clicks: 14.8%', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(screen.getByText('Opens: Not tracked · clicks: Not tracked')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Results of Winter news' })).toHaveAttribute(
      'href',
      '/admin/campaigns/c-sent/report',
    );
  });
});
