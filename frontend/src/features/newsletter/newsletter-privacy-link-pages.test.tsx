import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
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

const refused = (status: number, code: string) =>
  HttpResponse.json({ error: { code, message: 'no' } }, { status });

describe('the mailed download link', () => {
  it('checks the link, then saves the data as the JSON file the API names', async () => {
    const calls = linkCalls(
      () =>
        HttpResponse.json(
          { email: EMAIL },
          { headers: { 'Content-Disposition': 'attachment; filename="my-data-2026-11-29.json"' } },
        ),
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
