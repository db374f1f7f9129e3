import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildCampaign, buildRecipient, pageOf } from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

/** Answers each ask of the ledger from `pages` (by state and page), recording the asks. */
function serveLedger(pages: (state: string, page: number) => ReturnType<typeof pageOf>) {
  const { handler, calls } = recordAdminCalls('get', '/campaigns/:id/recipients', () => {
    // recordAdminCalls has just recorded this ask.
    const params = calls[calls.length - 1]?.url.searchParams ?? new URLSearchParams();
    return HttpResponse.json(pages(params.get('state') ?? '', Number(params.get('page') ?? 1)));
  });
  server.use(handler);
  return { calls };
}

async function openLedger(options: { mobile?: boolean; role?: 'viewer' | 'manager' } = {}) {
  server.use(
    adminList('/campaigns', [
      buildCampaign({
        id: 'c-1',
        name: 'Spring offer',
        status: 'sent',
        total: 60,
        sentCount: 57,
        failedCount: 3,
      }),
    ]),
  );
  const rendered = await renderAdmin('/admin/campaigns', options);
  await rendered.user.click(
    await screen.findByRole('button', { name: 'Recipients of Spring offer' }, SECTION_LOAD),
  );
  const dialog = await screen.findByRole('dialog', { name: 'Recipients of “Spring offer”' });
  return { ...rendered, dialog };
}

describe('Mail Manager: a campaign’s recipients', () => {
  it('opens on the failed recipients, each with a sentence, the SMTP reply behind Details', async () => {
    const { calls } = serveLedger((state) =>
      state === 'failed'
        ? pageOf([
            buildRecipient({ email: 'gone@example.com', reason: '550 5.1.1 No such user' }),
            buildRecipient({ email: 'full@example.com', reason: '552 Mailbox full', attempts: 3 }),
          ])
        : pageOf([]),
    );
    const { dialog, user } = await openLedger();

    const table = await findTable('Recipients');
    expect(dialog).toContainElement(table);
    const gone = (await within(table).findByText('gone@example.com')).closest(
      '[role="row"]',
    ) as HTMLElement;
    expect(gone).toHaveTextContent('This address does not exist at the recipient’s provider.');
    expect(gone).toHaveTextContent('Failed');
    expect(gone).not.toHaveTextContent('550 5.1.1 No such user');
    const details = within(gone).getByRole('button', { name: 'Details' });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    await user.click(details);
    expect(details).toHaveAttribute('aria-expanded', 'true');
    expect(within(gone).getByText('550 5.1.1 No such user')).toBeVisible();
    const full = within(table).getByText('full@example.com').closest('[role="row"]');
    expect(full).toHaveTextContent('The recipient’s mailbox is full.');
    expect(full).toHaveTextContent('3');
    expect(calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/recipients`);
    expect(Object.fromEntries(calls[0]?.url.searchParams ?? [])).toMatchObject({
      state: 'failed',
      page: '1',
      pageSize: '25',
    });
  });

  it('filters by state and pages through the ledger', async () => {
    const sentPage = (page: number) =>
      pageOf(
        Array.from({ length: page === 1 ? 25 : 5 }, (_, index) =>
          buildRecipient({
            email: `p${page}-${index}@example.com`,
            state: 'sent',
            reason: null,
          }),
        ),
        { total: 30, page },
      );
    const { calls } = serveLedger((state, page) =>
      state === 'sent' ? sentPage(page) : pageOf([buildRecipient()]),
    );
    const { user, dialog } = await openLedger({ mobile: true });

    await user.click(within(dialog).getByRole('tab', { name: 'Sent' }));
    const list = await within(dialog).findByRole('list', { name: 'Recipients' });
    expect(await within(list).findByText('p1-0@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText('Page 1 of 2 · 30 in all')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Next page' }));
    expect(await within(dialog).findByText('p2-4@example.com')).toBeInTheDocument();
    expect(within(dialog).getByText('Page 2 of 2 · 30 in all')).toBeInTheDocument();
    const asked = calls.map((call) => [
      call.url.searchParams.get('state'),
      call.url.searchParams.get('page'),
    ]);
    expect(asked).toEqual([
      ['failed', '1'],
      ['sent', '1'],
      ['sent', '2'],
    ]);
  });

  it('says so when a state has nobody in it', async () => {
    serveLedger(() => pageOf([]));
    const { user, dialog } = await openLedger({ role: 'viewer' });

    expect(await within(dialog).findByText('No failed recipients')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Pending' }));
    expect(await within(dialog).findByText('Nobody is waiting')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the loading and error states, with a retry', async () => {
    server.use(adminPending('get', '/campaigns/:id/recipients'));
    const loading = await openLedger({ mobile: true });
    expect(
      await within(loading.dialog).findByRole('progressbar', { name: 'Loading...' }),
    ).toBeInTheDocument();
    loading.unmount();

    server.use(adminFailure('get', '/campaigns/:id/recipients', 500));
    const { dialog } = await openLedger({ mobile: true });
    expect(await within(dialog).findByText('This list could not be loaded.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('is not offered on a draft, which has no recipients yet', async () => {
    server.use(adminList('/campaigns', [buildCampaign({ name: 'Spring offer' })]));
    await renderAdmin('/admin/campaigns', { mobile: true });
    await findCardList('Campaigns');
    expect(screen.queryByRole('button', { name: 'Recipients of Spring offer' })).toBeNull();
  });
});
