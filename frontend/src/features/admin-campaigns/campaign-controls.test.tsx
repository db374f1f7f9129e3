import type { CampaignDto, CampaignStatus, Role } from '@agency/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildCampaign, buildProgress, pageOf } from '../../testing/admin-factory';
import { findCardList, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';

const campaignCards = () => findCardList('Campaigns');

/** The Mail Manager on a phone, listing one campaign, whose progress says the same status. */
async function showCampaign(campaign: Partial<CampaignDto>, role: Role = 'manager') {
  const listed = buildCampaign({ name: 'Spring offer', ...campaign });
  server.use(
    adminList('/campaigns', [listed]),
    http.get(`${ADMIN}/campaigns/:id/progress`, () =>
      HttpResponse.json(buildProgress({ id: listed.id, status: listed.status })),
    ),
  );
  const rendered = await renderAdmin('/admin/campaigns', { role, mobile: true });
  await campaignCards();
  return rendered;
}

/** A control endpoint that answers with the campaign in its new status. */
function recordControl(control: string, status: CampaignStatus) {
  const recorded = recordAdminCalls('post', `/campaigns/:id/${control}`, () =>
    HttpResponse.json({ campaign: buildCampaign({ id: 'c-1', status }) }),
  );
  server.use(recorded.handler);
  return recorded.calls;
}

const CONTROL_NAMES = [
  'Pause Spring offer',
  'Resume Spring offer',
  'Cancel sending Spring offer',
  'Resend to failed recipients of Spring offer',
  'Send a test of Spring offer',
];

function shownControls(): string[] {
  return CONTROL_NAMES.filter((name) => screen.queryByRole('button', { name }) !== null);
}

describe('Mail Manager: the sending controls', () => {
  it.each<[CampaignStatus, Partial<CampaignDto>, string[]]>([
    ['draft', {}, ['Send a test of Spring offer']],
    [
      'queued',
      {},
      ['Pause Spring offer', 'Cancel sending Spring offer', 'Send a test of Spring offer'],
    ],
    [
      'sending',
      {},
      ['Pause Spring offer', 'Cancel sending Spring offer', 'Send a test of Spring offer'],
    ],
    [
      'paused',
      {},
      ['Resume Spring offer', 'Cancel sending Spring offer', 'Send a test of Spring offer'],
    ],
    [
      'sent',
      { total: 10, sentCount: 7, failedCount: 3 },
      ['Resend to failed recipients of Spring offer', 'Send a test of Spring offer'],
    ],
    ['sent', { total: 10, sentCount: 10 }, ['Send a test of Spring offer']],
    [
      'failed',
      { total: 2, failedCount: 2 },
      ['Resend to failed recipients of Spring offer', 'Send a test of Spring offer'],
    ],
    ['cancelled', { total: 10, sentCount: 4 }, ['Send a test of Spring offer']],
  ])('offers a manager what applies to a %s campaign %j', async (status, counts, expected) => {
    await showCampaign({ status, ...counts });
    expect(shownControls()).toEqual(expected);
  });

  it.each(['editor', 'viewer'] as const)(
    'never shows a %s the controls, only the recipients',
    async (role) => {
      for (const status of ['sending', 'paused', 'sent'] as const) {
        const { unmount } = await showCampaign({ status, failedCount: 2, total: 5 }, role);
        expect(shownControls()).toEqual([]);
        expect(screen.getByRole('button', { name: 'Recipients of Spring offer' })).toBeEnabled();
        unmount();
      }
    },
  );

  it('pauses a campaign being sent, then resumes it, saying so each time', async () => {
    // The list answers with whatever the last control made of the campaign.
    let status: CampaignStatus = 'sending';
    const control = (name: string, next: CampaignStatus) =>
      recordAdminCalls('post', `/campaigns/:id/${name}`, () => {
        status = next;
        return HttpResponse.json({ campaign: buildCampaign({ id: 'c-1', status }) });
      });
    const pause = control('pause', 'paused');
    const resume = control('resume', 'queued');
    server.use(
      pause.handler,
      resume.handler,
      http.get(`${ADMIN}/campaigns`, () =>
        HttpResponse.json(pageOf([buildCampaign({ id: 'c-1', name: 'Spring offer', status })])),
      ),
    );
    const { user } = await renderAdmin('/admin/campaigns', { role: 'manager', mobile: true });
    await campaignCards();

    await user.click(screen.getByRole('button', { name: 'Pause Spring offer' }));
    expect(await screen.findByText('“Spring offer” paused')).toBeInTheDocument();
    expect(pause.calls).toHaveLength(1);
    expect(pause.calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/pause`);

    await user.click(await screen.findByRole('button', { name: 'Resume Spring offer' }));
    expect(await screen.findByText('“Spring offer” resumed')).toBeInTheDocument();
    expect(resume.calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/resume`);
    expect(await screen.findByRole('button', { name: 'Pause Spring offer' })).toBeInTheDocument();
  });

  it("says why a control was refused, in the server's words", async () => {
    server.use(
      adminFailure('post', '/campaigns/:id/pause', 409, {
        message: 'Only a campaign being sent can be paused',
      }),
    );
    const { user } = await showCampaign({ status: 'sending' });

    await user.click(screen.getByRole('button', { name: 'Pause Spring offer' }));
    const toast = (await screen.findByText('Failed to pause “Spring offer”'))
      .parentElement as HTMLElement;
    expect(within(toast).getByText('Only a campaign being sent can be paused')).toBeInTheDocument();
  });

  it('cancels only after a confirmation that says it is final', async () => {
    const cancelled = recordControl('cancel', 'cancelled');
    const { user } = await showCampaign({ id: 'c-1', status: 'paused' });

    await user.click(screen.getByRole('button', { name: 'Cancel sending Spring offer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel “Spring offer”?' });
    expect(confirm).toHaveTextContent('a cancelled campaign cannot be resumed');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cancelled).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel sending Spring offer' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel “Spring offer”?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel Campaign' }));
    expect(await screen.findByText('“Spring offer” cancelled')).toBeInTheDocument();
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/cancel`);
  });

  it('resends to the failed only after a confirmation naming how many', async () => {
    const resent = recordControl('resend-failed', 'queued');
    const { user } = await showCampaign({
      id: 'c-1',
      status: 'sent',
      total: 1500,
      sentCount: 250,
      failedCount: 1250,
    });

    await user.click(
      screen.getByRole('button', { name: 'Resend to failed recipients of Spring offer' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Resend “Spring offer”?' });
    expect(confirm).toHaveTextContent('the recipients whose mail failed: 1,250.');
    expect(resent).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Resend to Failed' }));
    expect(
      await screen.findByText('Resending “Spring offer” to the failed recipients'),
    ).toBeInTheDocument();
    expect(resent[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/resend-failed`);
  });

  it('sends a test of a draft to an address the contracts schema accepts', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns/:id/test', (body) =>
      HttpResponse.json({ queued: true, ...(body as object) }, { status: 202 }),
    );
    server.use(handler);
    const { user } = await showCampaign({
      id: 'c-1',
      status: 'draft',
      translations: [{ locale: 'ar', subject: 'مرحبا', content: '<p>عروض</p>' }],
    });

    await user.click(screen.getByRole('button', { name: 'Send a test of Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test of “Spring offer”' });
    const email = within(dialog).getByRole('textbox', { name: /^Email address/ });
    // The signed-in user's own address is offered first.
    expect(email).toHaveValue('manager@agency.test');
    expect(email).toHaveAttribute('type', 'email');

    await user.clear(email);
    await user.type(email, 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    expect(
      await within(dialog).findByText('Please enter a valid email address'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(email);
    await user.type(email, 'proof@agency.test');
    // The languages the campaign is written in, its default first.
    await user.click(within(dialog).getByRole('combobox', { name: 'Language' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'English',
      'Arabic',
    ]);
    await user.click(screen.getByRole('option', { name: 'Arabic' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    expect(await screen.findByText('Test e-mail sent')).toBeInTheDocument();
    expect(calls[0]?.url.pathname).toBe(`${ADMIN}/campaigns/c-1/test`);
    expect(calls[0]?.body).toEqual({ email: 'proof@agency.test', locale: 'ar' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("keeps the test dialog open with the server's reason under the field when it refuses", async () => {
    server.use(
      adminFailure('post', '/campaigns/:id/test', 400, {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are not valid',
        fields: { email: 'This address is unsubscribed' },
      }),
    );
    const { user } = await showCampaign({ status: 'sent', total: 1, sentCount: 1 });

    await user.click(screen.getByRole('button', { name: 'Send a test of Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test of “Spring offer”' });
    await user.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    expect(await screen.findByText('Failed to send the test')).toBeInTheDocument();
    expect(within(dialog).getByText('This address is unsubscribed')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Send a test of “Spring offer”' })).toBeVisible();
  });

  it('shows why the server refuses a test address under the field, and says when the hour is used up', async () => {
    const reason = 'Test mail goes only to staff addresses or to addresses an admin allows';
    server.use(
      adminFailure('post', '/campaigns/:id/test', 400, {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { email: reason },
      }),
    );
    const { user } = await showCampaign({ id: 'c-1', status: 'draft' });
    await user.click(screen.getByRole('button', { name: 'Send a test of Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a test of “Spring offer”' });
    expect(dialog).toHaveTextContent('Tests go only to staff addresses');
    const email = within(dialog).getByRole('textbox', { name: /^Email address/ });
    await user.clear(email);
    await user.type(email, 'stranger@gmail.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    // Under the field, and read out with it.
    await waitFor(() => expect(email).toHaveAccessibleDescription(reason));
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveValue('stranger@gmail.com');

    server.use(
      adminFailure('post', '/campaigns/:id/test', 429, {
        code: 'RATE_LIMITED',
        message: 'Too many requests, please try again later',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Send Test' }));
    expect(
      await screen.findByText('Too many requests, please try again later'),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Send a test of “Spring offer”' })).toBeVisible();
  });

  describe('in Arabic', () => {
    afterEach(async () => {
      await act(() => i18n.changeLanguage('en'));
    });

    it('names the controls and says how they went in Arabic, right to left', async () => {
      recordControl('pause', 'paused');
      const { user } = await showCampaign({ id: 'c-1', status: 'sending' });
      await act(() => i18n.changeLanguage('ar'));

      expect(document.documentElement).toHaveAttribute('dir', 'rtl');
      await user.click(
        await screen.findByRole('button', { name: 'إيقاف Spring offer مؤقتًا' }, SECTION_LOAD),
      );
      expect(await screen.findByText('تم إيقاف «Spring offer» مؤقتًا')).toBeInTheDocument();
    });
  });
});
