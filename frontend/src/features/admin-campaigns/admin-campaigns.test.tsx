import { DEFAULT_PLACEHOLDER_FALLBACKS, type CampaignProgressDto } from '@agency/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  buildAudience,
  buildCampaign,
  buildMailingList,
  buildProgress,
  pageOf,
} from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';
import { campaignsApi } from './api/campaigns-api';
import { progressPolling } from './hooks/use-campaign-progress';

const campaignCards = () => findCardList('Campaigns');

/**
 * Fills the campaign modal's text fields, pasted: typing each character
 * re-validates the whole form, slowly in jsdom. The content goes through the
 * editor's HTML source view.
 */
async function writeDraft(user: UserEvent, dialog: HTMLElement, content: string) {
  for (const [label, value] of [
    [/^Campaign name/, 'Autumn deals'],
    [/^Email subject/, 'Our autumn packs'],
  ] as const) {
    await user.click(within(dialog).getByLabelText(label));
    await user.paste(value);
  }
  await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
  await user.click(within(dialog).getByLabelText('Content (HTML source)'));
  await user.paste(content);
}

describe('Mail Manager', () => {
  it('lists the campaigns with their status chips and delivery counts', async () => {
    server.use(
      adminList('/campaigns', [
        buildCampaign({ name: 'Spring offer', status: 'draft' }),
        buildCampaign({
          name: 'Winter news',
          status: 'sent',
          total: 120,
          sentCount: 118,
          failedCount: 2,
        }),
      ]),
    );
    await renderAdmin('/admin/campaigns');

    const grid = await findTable('Campaigns');
    const spring = (await within(grid).findByText('Spring offer')).closest('[role="row"]');
    expect(spring).toHaveTextContent('Draft');
    expect(spring).toHaveTextContent('Not sent yet');
    expect(spring).toHaveTextContent('Everyone');
    const winter = within(grid).getByText('Winter news').closest('[role="row"]');
    expect(winter).toHaveTextContent('Sent');
    expect(winter).toHaveTextContent('118 sent · 2 failed');
  });

  it('shows loading, empty (with a way to write one) and error states', async () => {
    server.use(adminPending('get', '/campaigns'));
    const loading = await renderAdmin('/admin/campaigns', { mobile: true });
    expect(await screen.findByRole('progressbar', { name: 'Loading...' })).toBeInTheDocument();
    loading.unmount();

    server.use(adminList('/campaigns', []));
    const empty = await renderAdmin('/admin/campaigns', { mobile: true });
    expect(await screen.findByText('No campaigns yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New Campaign' })).toHaveLength(2);
    empty.unmount();

    server.use(adminFailure('get', '/campaigns', 500));
    await renderAdmin('/admin/campaigns', { mobile: true });
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('creates a campaign from the modal: name, subject, content of 10 rows, recipients', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'New Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await within(dialog).findAllByText(/is required/)).not.toHaveLength(0);
    expect(calls).toHaveLength(0);

    await writeDraft(user, dialog, '<p>Three packs for the season.</p>');
    expect(within(dialog).getByLabelText('Content (HTML source)')).toHaveAttribute('rows', '10');
    await user.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
    await user.click(await screen.findByRole('option', { name: /^Newsletter subscribers · 120/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      name: 'Autumn deals',
      subject: 'Our autumn packs',
      content: '<p>Three packs for the season.</p>',
      recipientType: 'subscribers',
      listIds: [],
      segmentIds: [],
      // No lawful basis: an admin's choice, for enquiry contacts only.
      enquiryLawfulBasis: null,
      defaultLocale: 'en',
      translations: [],
      placeholderFallbacks: DEFAULT_PLACEHOLDER_FALLBACKS,
      templateId: null,
      sendingWindow: null,
      ratePerMinute: null,
      // The agency's defaults, untouched in the editor.
      tracking: { opens: true, clicks: true },
      // Off until the author turns it on.
      publishToArchive: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('targets mailing lists: one at least, with the count of the lists chosen', async () => {
    const expo = buildMailingList({ name: 'Expo guests' });
    const gala = buildMailingList({ name: 'Gala 2026' });
    const closing = buildMailingList({
      name: 'Closing fair',
      state: 'deleting',
      deletion: { total: 10, removed: 2, startedAt: expo.createdAt },
    });
    // The API leaves a list being deleted out when asked for active lists only.
    server.use(
      http.get('/api/admin/lists', ({ request }) =>
        HttpResponse.json(
          pageOf(
            new URL(request.url).searchParams.get('state') === 'active'
              ? [expo, gala]
              : [expo, gala, closing],
          ),
        ),
      ),
    );
    const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'New Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
    await writeDraft(user, dialog, '<p>See you at the gala.</p>');
    await user.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
    await user.click(await screen.findByRole('option', { name: /^Members of lists/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    // The count asked for the lists chosen.
    server.use(
      http.get('/api/admin/campaigns/audience', ({ request }) =>
        HttpResponse.json(
          buildAudience({
            lists:
              new URL(request.url).searchParams.get('listIds') === `${expo.id},${gala.id}`
                ? 830
                : 0,
          }),
        ),
      ),
    );
    await user.click(within(dialog).getByRole('combobox', { name: /^Lists/ }));
    await user.click(await screen.findByRole('option', { name: 'Expo guests' }));
    await user.click(await screen.findByRole('option', { name: 'Gala 2026' }));
    expect(screen.queryByRole('option', { name: 'Closing fair' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(await within(dialog).findByRole('combobox', { name: 'Recipients' })).toHaveTextContent(
      'Members of lists · 830',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ recipientType: 'lists', listIds: [expo.id, gala.id] });
  });

  it('counts the lists chosen now, never showing the count of those chosen before while it runs', async () => {
    const gala = buildMailingList({ name: 'Gala 2026' });
    server.use(adminList('/lists', [gala]));
    // The walk over a large store's members takes seconds: the answer waits for the test.
    let answer: () => void = () => undefined;
    const counted = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get(`${ADMIN}/campaigns/audience`, async ({ request }) => {
        const listIds = new URL(request.url).searchParams.get('listIds');
        if (listIds) await counted;
        return HttpResponse.json(buildAudience({ lists: listIds === gala.id ? 1952 : 0 }));
      }),
    );
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();
    await user.click(screen.getByRole('button', { name: 'New Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
    const recipients = within(dialog).getByRole('combobox', { name: 'Recipients' });
    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: /^Members of lists/ }));
    await waitFor(() => expect(recipients).toHaveTextContent('Members of lists · 0'));

    await user.click(within(dialog).getByRole('combobox', { name: /^Lists/ }));
    await user.click(await screen.findByRole('option', { name: 'Gala 2026' }));
    await user.keyboard('{Escape}');
    expect(recipients).toHaveTextContent('Members of lists · counting...');

    answer();
    await waitFor(() => expect(recipients).toHaveTextContent('Members of lists · 1,952'));
  });

  it("says a campaign was not created, in the spec's words with the server's reason, and keeps the draft open", async () => {
    server.use(adminFailure('post', '/campaigns', 503, { message: 'The store is unavailable' }));
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'New Campaign' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
    await writeDraft(user, dialog, '<p>Three packs.</p>');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    const toast = (await screen.findByText('Failed to create campaign'))
      .parentElement as HTMLElement;
    expect(within(toast).getByText('The store is unavailable')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New Campaign' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Campaign name/)).toHaveValue('Autumn deals');
  });

  it('offers Send only on drafts, and asks first, naming how many people it will reach', async () => {
    server.use(
      adminList('/campaigns', [
        buildCampaign({ id: 'c-draft', name: 'Spring offer', recipientType: 'contacts' }),
        buildCampaign({ name: 'Winter news', status: 'sent', total: 3, sentCount: 3 }),
      ]),
      http.get(`${ADMIN}/campaigns/audience`, () =>
        HttpResponse.json(buildAudience({ contacts: 42 })),
      ),
    );
    const { handler, calls } = recordAdminCalls('post', '/campaigns/:id/send', () =>
      HttpResponse.json(
        { campaign: buildCampaign({ id: 'c-draft', status: 'queued' }) },
        { status: 202 },
      ),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    expect(screen.getByRole('button', { name: 'Send Spring offer' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Winter news' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send Spring offer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send “Spring offer”?' });
    expect(
      await within(confirm).findByText(
        'It will be mailed to 42 recipients (contacts). Sending cannot be undone.',
      ),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.click(within(confirm).getByRole('button', { name: 'Send Now' }));
    expect(await screen.findByText('Campaign sent successfully')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-draft/send`);
  });

  it("says why a send failed, in the server's words", async () => {
    server.use(
      adminList('/campaigns', [buildCampaign({ name: 'Spring offer', recipientType: 'all' })]),
    );
    server.use(http.get(`${ADMIN}/campaigns/audience`, () => HttpResponse.json(buildAudience())));
    server.use(
      adminFailure('post', '/campaigns/:id/send', 409, {
        message: 'Only a draft campaign can be sent',
      }),
    );
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'Send Spring offer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send “Spring offer”?' });
    await within(confirm).findByText(/It will be mailed to 150 recipients/);
    await user.click(within(confirm).getByRole('button', { name: 'Send Now' }));
    const toast = (await screen.findByText('Failed to send campaign')).parentElement as HTMLElement;
    expect(within(toast).getByText('Only a draft campaign can be sent')).toBeInTheDocument();
  });

  it('disables Send Now when the audience is empty', async () => {
    server.use(
      adminList('/campaigns', [buildCampaign({ name: 'Spring offer', recipientType: 'contacts' })]),
      http.get(`${ADMIN}/campaigns/audience`, () =>
        HttpResponse.json(buildAudience({ contacts: 0 })),
      ),
    );
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'Send Spring offer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send “Spring offer”?' });
    expect(
      await within(confirm).findByText('Nobody would receive it: there are no contacts yet.'),
    ).toBeInTheDocument();
    expect(within(confirm).getByRole('button', { name: 'Send Now' })).toBeDisabled();
  });

  describe('a campaign being sent', () => {
    const interval = progressPolling.intervalMs;
    beforeEach(() => {
      progressPolling.intervalMs = 40;
    });
    afterEach(() => {
      progressPolling.intervalMs = interval;
    });

    it("shows its live progress from the server (bar, sent / total, failed, what is left, the server's rate) until it ends, then says so once", async () => {
      const sending = (
        sentCount: number,
        failedCount: number,
        ratePerSecond: number,
      ): Partial<CampaignProgressDto> => ({
        status: 'sending',
        total: 100,
        sentCount,
        failedCount,
        pendingCount: 100 - sentCount - failedCount,
        percent: sentCount + failedCount,
        ratePerSecond,
      });
      const readings: Partial<CampaignProgressDto>[] = [
        sending(20, 0, 0),
        sending(40, 1, 12.5),
        { ...sending(98, 2, 0), status: 'sent', finishedAt: '2026-05-04T08:01:00.000Z' },
      ];
      let read = 0;
      let released = 1;
      let finished = false;
      server.use(
        http.get(`${ADMIN}/campaigns`, () =>
          HttpResponse.json(
            pageOf([
              buildCampaign({
                id: 'c-live',
                name: 'Spring offer',
                ...(finished
                  ? { status: 'sent', total: 100, sentCount: 98, failedCount: 2 }
                  : { status: 'sending' }),
              }),
            ]),
          ),
        ),
        http.get(`${ADMIN}/campaigns/c-live/progress`, async () => {
          // Each reading is held until the test has seen the one before it.
          await until(() => read < released);
          const reading = readings[Math.min(read, readings.length - 1)] ?? {};
          read += 1;
          if (reading.status === 'sent') finished = true;
          return HttpResponse.json(buildProgress({ id: 'c-live', ...reading }));
        }),
      );
      await renderAdmin('/admin/campaigns', { mobile: true });
      await campaignCards();

      const bar = await screen.findByRole('progressbar', {
        name: 'Sending progress of Spring offer',
      });
      await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '20'));
      expect(screen.getByText('20 / 100 · 0 failed · 80 to go · 0 mails/s')).toBeInTheDocument();

      released = 2;
      expect(
        await screen.findByText('41 / 100 · 1 failed · 59 to go · 12.5 mails/s'),
      ).toBeInTheDocument();
      expect(bar).toHaveAttribute('aria-valuenow', '41');
      expect(bar).toHaveAttribute('aria-valuetext', '41%');

      released = 3;
      expect(await screen.findByText('“Spring offer” has been sent')).toBeInTheDocument();
      expect(screen.getByText('98 delivered, 2 failed.')).toBeInTheDocument();
      expect(await screen.findByText('98 sent · 2 failed')).toBeInTheDocument();
      expect(screen.queryByRole('progressbar', { name: /Sending progress/ })).toBeNull();
      expect(screen.getAllByText('“Spring offer” has been sent')).toHaveLength(1);
    });

    it('follows a send that ends before the list is read again, and says when it ended', async () => {
      // Three recipients are mailed sooner than the list can be read again:
      // every read after the send already says "sent".
      let sent = false;
      const finished = { status: 'sent', total: 3, sentCount: 3, failedCount: 0 } as const;
      server.use(
        http.get(`${ADMIN}/campaigns`, () =>
          HttpResponse.json(
            pageOf([
              buildCampaign({ id: 'c-fast', name: 'Spring offer', ...(sent ? finished : {}) }),
            ]),
          ),
        ),
        http.get(`${ADMIN}/campaigns/audience`, () => HttpResponse.json(buildAudience())),
        http.post(`${ADMIN}/campaigns/c-fast/send`, () => {
          sent = true;
          return HttpResponse.json(
            { campaign: buildCampaign({ id: 'c-fast', name: 'Spring offer', status: 'queued' }) },
            { status: 202 },
          );
        }),
        http.get(`${ADMIN}/campaigns/c-fast/progress`, () =>
          HttpResponse.json(buildProgress({ id: 'c-fast', ...finished, percent: 100 })),
        ),
      );
      const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
      await campaignCards();

      await user.click(screen.getByRole('button', { name: 'Send Spring offer' }));
      const confirm = await screen.findByRole('dialog', { name: 'Send “Spring offer”?' });
      await within(confirm).findByText(/It will be mailed to 150 recipients/);
      await user.click(within(confirm).getByRole('button', { name: 'Send Now' }));

      expect(await screen.findByText('“Spring offer” has been sent')).toBeInTheDocument();
      expect(screen.getByText('3 delivered, 0 failed.')).toBeInTheDocument();
      expect(await screen.findByText('3 sent · 0 failed')).toBeInTheDocument();
    });

    it('shows a resumed campaign as sending once the worker takes it up, before the send ends', async () => {
      // The list (and the resume's answer) say queued; the worker has taken it up since.
      let status: 'paused' | 'queued' = 'paused';
      const resume = recordAdminCalls('post', '/campaigns/:id/resume', () => {
        status = 'queued';
        return HttpResponse.json({
          campaign: buildCampaign({ id: 'c-resumed', name: 'Spring offer', status }),
        });
      });
      server.use(
        resume.handler,
        http.get(`${ADMIN}/campaigns`, () =>
          HttpResponse.json(
            pageOf([buildCampaign({ id: 'c-resumed', name: 'Spring offer', status })]),
          ),
        ),
        http.get(`${ADMIN}/campaigns/c-resumed/progress`, () =>
          HttpResponse.json(
            buildProgress({
              id: 'c-resumed',
              status: status === 'paused' ? 'paused' : 'sending',
              total: 10,
              sentCount: 4,
              pendingCount: 6,
              percent: 40,
            }),
          ),
        ),
      );
      const { user } = await renderAdmin('/admin/campaigns', { role: 'manager', mobile: true });
      const cards = await campaignCards();
      expect(await within(cards).findByText('Paused')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Resume Spring offer' }));

      expect(await within(cards).findByText('Sending')).toBeInTheDocument();
      expect(within(cards).queryByText('Queued')).toBeNull();
      expect(await screen.findByRole('button', { name: 'Pause Spring offer' })).toBeEnabled();
    });

    it('leaves a row whose send ended as it is when a late reading still says sending', async () => {
      server.use(
        adminList('/campaigns', [
          buildCampaign({
            id: 'c-ended',
            name: 'Spring offer',
            status: 'sent',
            total: 3,
            sentCount: 3,
          }),
        ]),
        http.get(`${ADMIN}/campaigns/c-ended/progress`, () =>
          HttpResponse.json(
            buildProgress({ id: 'c-ended', status: 'sending', total: 3, sentCount: 2 }),
          ),
        ),
      );
      const { store } = await renderAdmin('/admin/campaigns', { mobile: true });
      const cards = await campaignCards();
      expect(within(cards).getByText('3 sent · 0 failed')).toBeInTheDocument();

      // A reading asked for before the list was read again, answered after it.
      const late = store.dispatch(campaignsApi.endpoints.campaignProgress.initiate('c-ended'));
      await act(async () => {
        await late.unwrap();
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      late.unsubscribe();

      expect(within(cards).getByText('Sent')).toBeInTheDocument();
      expect(within(cards).getByText('3 sent · 0 failed')).toBeInTheDocument();
      expect(screen.queryByRole('progressbar', { name: /Sending progress/ })).toBeNull();
    });

    it('says a paused campaign is paused, with its bar where it stopped', async () => {
      server.use(
        adminList('/campaigns', [
          buildCampaign({ id: 'c-paused', name: 'Spring offer', status: 'paused' }),
        ]),
        http.get(`${ADMIN}/campaigns/c-paused/progress`, () =>
          HttpResponse.json(
            buildProgress({
              id: 'c-paused',
              status: 'paused',
              total: 10,
              sentCount: 4,
              pendingCount: 6,
              percent: 40,
            }),
          ),
        ),
      );
      await renderAdmin('/admin/campaigns', { mobile: true });
      await campaignCards();

      expect(await screen.findByText('4 / 10 · 0 failed · 6 to go · Paused')).toBeInTheDocument();
      expect(
        screen.getByRole('progressbar', { name: 'Sending progress of Spring offer' }),
      ).toHaveAttribute('aria-valuenow', '40');
    });
  });

  it.each(['editor', 'viewer'] as const)(
    'lets a %s read the campaigns but not write, send or delete them',
    async (role) => {
      server.use(adminList('/campaigns', [buildCampaign({ name: 'Spring offer' })]));
      await renderAdmin('/admin/campaigns', { role, mobile: true });
      const cards = await campaignCards();

      expect(within(cards).getByText('Spring offer')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'New Campaign' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Send Spring offer' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Edit Spring offer' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Delete Spring offer' })).not.toBeInTheDocument();
      expect(
        screen.queryByRole('button', { name: 'Duplicate Spring offer' }),
      ).not.toBeInTheDocument();
    },
  );

  it('lets a manager write, send and delete drafts', async () => {
    server.use(adminList('/campaigns', [buildCampaign({ name: 'Spring offer' })]));
    await renderAdmin('/admin/campaigns', { role: 'manager', mobile: true });
    await campaignCards();

    expect(screen.getByRole('button', { name: 'New Campaign' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Spring offer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Spring offer' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Spring offer' })).toBeInTheDocument();
  });

  it('deletes a campaign only after confirming', async () => {
    server.use(adminList('/campaigns', [buildCampaign({ id: 'c-old', name: 'Old offer' })]));
    const { handler, calls } = recordAdminCalls(
      'delete',
      '/campaigns/:id',
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'Delete Old offer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Old offer”?' });
    expect(calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete Campaign' }));
    expect(await screen.findByText('Campaign deleted successfully')).toBeInTheDocument();
    expect(calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-old`);
  });
});

describe('duplicating a campaign', () => {
  it('copies a sent campaign, says so, and opens the new draft in the editor', async () => {
    server.use(
      adminList('/campaigns', [
        buildCampaign({ id: 'c-sent', name: 'Winter news', status: 'sent', sentCount: 90 }),
      ]),
    );
    const { handler, calls } = recordAdminCalls('post', '/campaigns/:id/duplicate', () =>
      HttpResponse.json(
        buildCampaign({ id: 'c-copy', name: 'Copy of Winter news', status: 'draft' }),
        { status: 201 },
      ),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns', { role: 'manager', mobile: true });
    await campaignCards();

    const action = screen.getByRole('button', { name: 'Duplicate Winter news' });
    action.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('“Copy of Winter news” created as a draft')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-sent/duplicate`);
    expect(calls[0]?.headers.get('Accept-Language')).toBe('en');
    const editor = await screen.findByRole('dialog', { name: 'Edit Campaign' });
    expect(within(editor).getByLabelText(/^Campaign name/)).toHaveValue('Copy of Winter news');
  });

  it('says when the copy could not be made, and opens nothing', async () => {
    server.use(
      adminList('/campaigns', [buildCampaign({ id: 'c-gone', name: 'Gone offer' })]),
      adminFailure('post', '/campaigns/:id/duplicate', 404, {
        code: 'NOT_FOUND',
        message: 'No campaign with this id',
      }),
    );
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'Duplicate Gone offer' }));

    expect(await screen.findByText('The campaign could not be duplicated')).toBeInTheDocument();
    expect(screen.getByText('No campaign with this id')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Edit Campaign' })).not.toBeInTheDocument();
  });
});

/** Resolves once `ready()` holds, checking on each turn of the event loop. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}
