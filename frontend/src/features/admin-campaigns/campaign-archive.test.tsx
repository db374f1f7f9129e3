import { screen, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildCampaign } from '../../testing/admin-factory';
import { findCardList, findLoadedRecords, renderAdmin } from '../../testing/admin-render';
import { ADMIN, adminList, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

// The editor fills a big form: slow in jsdom when the suites share two cores.
jest.setTimeout(120_000);
const SLOW = { timeout: 15_000 };

describe('the "publish to the archive" switch of the campaign editor', () => {
  it('starts off, says what publishing does, and sends the choice', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns');
    await findLoadedRecords('Campaigns');
    const [add] = await screen.findAllByRole('button', { name: 'New Campaign' });
    if (add) await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
    const archive = await within(dialog).findByRole('switch', { name: 'Publish to the archive' });
    await screen.findByText(/Agency default: Agency News/, {}, SLOW);
    expect(archive).not.toBeChecked();
    expect(archive).toHaveAccessibleDescription(/public site at \/newsletter/);

    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('Archived');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Spring news');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>Spring</p>');
    await user.click(archive);
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully', {}, SLOW)).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ publishToArchive: true });
  });
});

describe('a sent campaign on the public archive', () => {
  it('is taken off, or put back, from its row by a role that may send', async () => {
    const sent = buildCampaign({
      id: 'c-9',
      name: 'Spring offer',
      status: 'sent',
      publishToArchive: true,
    });
    const { handler, calls } = recordAdminCalls('put', '/campaigns/:id/archive', (body) =>
      HttpResponse.json({ ...sent, ...(body as object) }),
    );
    server.use(adminList('/campaigns', [sent]), handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await findCardList('Campaigns');

    await user.click(
      await screen.findByRole('button', { name: 'Remove Spring offer from the archive' }),
    );

    expect(await screen.findByText('Removed from the archive', {}, SLOW)).toBeInTheDocument();
    expect(calls.map(({ url, body }) => [url.pathname, body])).toEqual([
      [`${ADMIN}/campaigns/c-9/archive`, { publishToArchive: false }],
    ]);
  });

  it.each([
    ['a role that may not send, on a sent campaign', 'editor', 'sent'],
    ['a draft, whose switch is in the editor', 'manager', 'draft'],
  ] as const)('offers no archive button to %s', async (_case, role, status) => {
    server.use(adminList('/campaigns', [buildCampaign({ id: 'c-1', name: 'Spring', status })]));
    await renderAdmin('/admin/campaigns', { role, mobile: true });
    await findCardList('Campaigns');
    await screen.findByRole('button', { name: 'Duplicate Spring' }).catch(() => undefined);

    expect(screen.queryByRole('button', { name: /to the archive|from the archive/ })).toBeNull();
  });
});
