import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildCampaign, buildProgress } from '../../testing/admin-factory';
import { findCardList, renderAdmin } from '../../testing/admin-render';
import { ADMIN, adminList, buildHealth } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

/** The Mail Manager on a phone, listing one queued campaign, with the mail server as `smtp`. */
async function showQueuedCampaign(smtp: Parameters<typeof buildHealth>[0]) {
  server.use(
    http.get('/api/health', () => HttpResponse.json(buildHealth(smtp))),
    adminList('/campaigns', [
      buildCampaign({ id: 'c-wait', name: 'Spring offer', status: 'queued', total: 600 }),
    ]),
    http.get(`${ADMIN}/campaigns/c-wait/progress`, () =>
      HttpResponse.json(buildProgress({ id: 'c-wait', status: 'queued', total: 600 })),
    ),
  );
  await renderAdmin('/admin/campaigns', { role: 'manager', mobile: true });
  await findCardList('Campaigns');
}

describe("a campaign's row while the mail server cannot be reached", () => {
  it('says it waits for the mail server instead of a rate of 0 mails/s', async () => {
    await showQueuedCampaign({ status: 'unreachable', since: '2026-11-28T08:15:00.000Z' });

    expect(
      await screen.findByText('0 / 600 · 0 failed · Waiting for the mail server'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/mails\/s/)).not.toBeInTheDocument();
  });

  it('shows its rate as before while the mail server answers', async () => {
    await showQueuedCampaign({ status: 'reachable', since: null });

    expect(await screen.findByText('0 / 600 · 0 failed · 0 mails/s')).toBeInTheDocument();
    expect(screen.queryByText(/Waiting for the mail server/)).not.toBeInTheDocument();
  });
});
