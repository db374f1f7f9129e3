import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PersonDataExportDto } from '@agency/contracts';
import { server } from '../../testing/msw-server';
import { renderApp, UNSTYLED } from '../../testing/render';

const EMAIL = 'rim@example.tn';

/** The mailed link's calls: the check, and the use answered by `use`; bodies recorded by path. */
function linkCalls(
  use: () => Response,
  check: () => Response = () => HttpResponse.json({ purpose: 'erasure', email: EMAIL }),
) {
  const calls: { path: string; body: unknown }[] = [];
  const record = async (request: Request) =>
    calls.push({ path: new URL(request.url).pathname, body: await request.json() });
  server.use(
    http.post('/api/newsletter/privacy-link/check', async ({ request }) => {
      await record(request);
      return check();
    }),
    http.post('/api/newsletter/privacy-link/download', async ({ request }) => {
      await record(request);
      return use();
    }),
    http.post('/api/newsletter/privacy-link/erasure', async ({ request }) => {
      await record(request);
      return use();
    }),
  );
  return calls;
}

/** What the API holds of the person: one record of most kinds, none of the others. */
const HELD: PersonDataExportDto = {
  formatVersion: 1,
  generatedAt: '2026-11-29T08:00:00.000Z',
  email: EMAIL,
  subscription: {
    email: EMAIL,
    status: 'confirmed',
    locale: 'fr',
    createdAt: '2026-10-01T09:00:00.000Z',
    confirmedAt: '2026-10-01T09:05:00.000Z',
    unsubscribedAt: null,
    unsubscribeMethod: null,
    consent: null,
  },
  listMemberships: [
    {
      list: { id: 'l1', name: 'Offres de printemps' },
      email: EMAIL,
      firstName: 'Rim',
      lastName: 'Gharbi',
      locale: 'fr',
      tags: [],
      consent: { basis: 'staff', at: null, by: null, file: null },
      createdAt: '2026-10-02T09:00:00.000Z',
    },
  ],
  enquiries: [
    {
      id: 'e1',
      firstName: 'Rim',
      lastName: 'Gharbi',
      email: EMAIL,
      phone: null,
      service: 'branding',
      message: 'A new logo for the shop, please.',
      locale: 'fr',
      status: 'new',
      createdAt: '2026-09-30T09:00:00.000Z',
    },
  ],
  mailsSent: [
    {
      campaign: { id: 'c1', name: 'Spring news' },
      round: 1,
      queuedAt: '2026-10-03T09:00:00.000Z',
      state: 'sent',
      reason: null,
      at: '2026-10-03T09:00:05.000Z',
    },
  ],
  mailEvents: [],
  suppression: null,
  trackingEvents: [],
};

const refused = (status: number, code: string) =>
  HttpResponse.json({ error: { code, message: 'no' } }, { status });

describe('the mailed download link', () => {
  it('checks the link, then saves the data as the JSON file the API names', async () => {
    const calls = linkCalls(
      () =>
        HttpResponse.json(HELD, {
          headers: { 'Content-Disposition': 'attachment; filename="my-data-2026-11-29.json"' },
        }),
      () => HttpResponse.json({ purpose: 'download', email: EMAIL }),
    );
    Object.assign(URL, { createObjectURL: jest.fn(() => 'blob:mine'), revokeObjectURL: jest.fn() });
    const clicked: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    try {
      const { user } = await renderApp('/newsletter/privacy/download?token=dl&lang=en', UNSTYLED);
      expect(await screen.findByRole('heading', { name: 'Download your data' })).toBeVisible();
      expect(screen.getByText(/everything we hold about rim@example.tn/)).toBeVisible();
      expect(calls).toEqual([
        { path: '/api/newsletter/privacy-link/check', body: { token: 'dl', purpose: 'download' } },
      ]);
      await user.click(screen.getByRole('button', { name: 'Download my data' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]?.download).toBe('my-data-2026-11-29.json');
      expect(calls[1]).toEqual({
        path: '/api/newsletter/privacy-link/download',
        body: { token: 'dl' },
      });
      expect(await screen.findByRole('heading', { name: 'Your data is downloaded' })).toBeVisible();
      // The same records, to read on the page.
      expect(screen.getByRole('heading', { name: `What we hold about ${EMAIL}` })).toBeVisible();
      const part = (name: string) => within(screen.getByRole('region', { name }));
      expect(part('Newsletter subscription').getByText('Subscribed')).toBeVisible();
      expect(part('Lists').getByText(/Offres de printemps, since/)).toBeVisible();
      expect(part('Enquiries').getByText('A new logo for the shop, please.')).toBeVisible();
      expect(part('Mails we sent you').getByText(/Spring news, .*: sent/)).toBeVisible();
      expect(part('Opens and clicks').getByText('Nothing.')).toBeVisible();
    } finally {
      click.mockRestore();
    }
  });

  it.each([
    [410, 'LINK_EXPIRED', 'This link has expired or was already used'],
    [404, 'NOT_FOUND', 'This link is not valid'],
    [500, 'INTERNAL', 'We could not open your data'],
  ])('explains a refused link (%s) and offers no download', async (status, code, heading) => {
    linkCalls(
      () => HttpResponse.json({}),
      () => refused(status, code),
    );
    await renderApp('/newsletter/privacy/download?token=bad&lang=en', UNSTYLED);
    expect(await screen.findByRole('heading', { name: heading })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Download my data' })).not.toBeInTheDocument();
  });
});

describe('the mailed erasure link', () => {
  it('states what is erased, and starts the erasure only on the final confirmation', async () => {
    const calls = linkCalls(() => HttpResponse.json({ status: 'started' }, { status: 202 }));
    const { user } = await renderApp('/newsletter/privacy/erase?token=er&lang=fr', UNSTYLED);
    expect(await screen.findByRole('heading', { name: 'Effacer vos données ?' })).toBeVisible();
    expect(screen.getByText(/votre abonnement à la newsletter/)).toHaveTextContent(EMAIL);
    expect(screen.getByText(/C'est irréversible/)).toBeVisible();
    expect(calls.map((call) => call.path)).toEqual(['/api/newsletter/privacy-link/check']);

    await user.click(screen.getByRole('button', { name: 'Effacer définitivement mes données' }));
    expect(await screen.findByRole('heading', { name: "L'effacement a commencé" })).toBeVisible();
    expect(calls[1]).toEqual({
      path: '/api/newsletter/privacy-link/erasure',
      body: { token: 'er' },
    });
  });

  it('reads right to left in Arabic', async () => {
    linkCalls(() => HttpResponse.json({ status: 'started' }, { status: 202 }));
    await renderApp('/newsletter/privacy/erase?token=er&lang=ar', UNSTYLED);
    expect(await screen.findByRole('heading', { name: 'محو بياناتك؟' })).toBeVisible();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('says the link was used when the confirmation comes too late', async () => {
    linkCalls(() => refused(410, 'LINK_EXPIRED'));
    const { user } = await renderApp('/newsletter/privacy/erase?token=er&lang=en', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: 'Erase my data for good' }));
    expect(
      await screen.findByRole('heading', { name: 'This link has expired or was already used' }),
    ).toBeVisible();
    expect(
      screen.queryByRole('button', { name: 'Erase my data for good' }),
    ).not.toBeInTheDocument();
  });

  it('refuses a link without a token without asking the API', async () => {
    const calls = linkCalls(() => HttpResponse.json({}));
    await renderApp('/newsletter/privacy/erase?lang=en', UNSTYLED);
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeVisible();
    expect(calls).toEqual([]);
  });
});
