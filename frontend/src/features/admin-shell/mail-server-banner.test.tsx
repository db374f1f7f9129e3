import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderAdmin } from '../../testing/admin-render';
import { buildHealth } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';
import { mailServerPolling } from '../../lib/mail-server-status';

const SINCE = '2026-11-28T08:15:00.000Z';

describe('the mail server banner of the admin pages', () => {
  const interval = mailServerPolling.intervalMs;
  beforeEach(() => {
    mailServerPolling.intervalMs = 50;
  });
  afterEach(() => {
    mailServerPolling.intervalMs = interval;
  });

  it('says, in a live region, since when the mail server cannot be reached and that sending resumes, then goes when it is back', async () => {
    let smtp: Parameters<typeof buildHealth>[0] = { status: 'unreachable', since: SINCE };
    server.use(http.get('/api/health', () => HttpResponse.json(buildHealth(smtp))));
    await renderAdmin('/admin/leads');

    const title = await screen.findByText('The mail server cannot be reached');
    const region = title.closest('[role="status"]');
    expect(region).toHaveAttribute('aria-live', 'polite');
    // On the agency's clock (Africa/Tunis in the test handlers), its zone named.
    expect(region).toHaveTextContent('Since Nov 28, 2026, 9:15 AM GMT+1, mail is waiting');
    expect(region).toHaveTextContent('Sending will resume by itself');

    smtp = { status: 'reachable', since: null };
    await waitFor(() =>
      expect(screen.queryByText('The mail server cannot be reached')).not.toBeInTheDocument(),
    );
  });

  it('shows nothing while the mail server answers', async () => {
    await renderAdmin('/admin/leads');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText('The mail server cannot be reached')).not.toBeInTheDocument();
  });
});
