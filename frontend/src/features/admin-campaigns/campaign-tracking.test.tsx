import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildAgencySettings,
  buildCampaign,
  buildCampaignSettings,
} from '../../testing/admin-factory';
import { findLoadedRecords, renderAdmin } from '../../testing/admin-render';
import { recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

// The editor fills a big form: slow in jsdom when the suites share two cores.
jest.setTimeout(120_000);
const SLOW = { timeout: 15_000 };

async function openEditor() {
  const rendered = await renderAdmin('/admin/campaigns');
  await findLoadedRecords('Campaigns');
  const [add] = await screen.findAllByRole('button', { name: 'New Campaign' });
  if (add) await rendered.user.click(add);
  const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
  return { ...rendered, dialog };
}

function recordCreates() {
  const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
    HttpResponse.json(buildCampaign(body as object), { status: 201 }),
  );
  server.use(handler);
  return calls;
}

describe('the tracking switches of the campaign editor', () => {
  it("start from the agency's defaults and send what was chosen", async () => {
    server.use(
      http.get('/api/admin/campaigns/settings', () =>
        HttpResponse.json(
          buildCampaignSettings({
            tracking: { ...buildAgencySettings().tracking, opens: true, clicks: false },
          }),
        ),
      ),
    );
    const calls = recordCreates();
    const { user, dialog } = await openEditor();
    const opens = await within(dialog).findByRole('switch', { name: 'Track opens' });
    const clicks = within(dialog).getByRole('switch', { name: 'Track clicks' });
    await screen.findByText(/Agency default: Agency News/, {}, SLOW);
    expect(opens).toBeChecked();
    expect(clicks).not.toBeChecked();
    expect(opens).toHaveAccessibleDescription(/invisible image/);
    expect(clicks).toHaveAccessibleDescription(/which link was followed/);

    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('Tracked');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Hello');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>Hello <a href="https://agency.test/offer">offer</a></p>');
    await user.click(opens);
    await user.click(clicks);
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully', {}, SLOW)).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ tracking: { opens: false, clicks: true } });
  });

  it("keep a draft's own choice over the agency's defaults", async () => {
    const draft = buildCampaign({
      name: 'Quiet draft',
      tracking: { opens: false, clicks: false, mode: null, keyDestroyed: false },
    });
    server.use(
      http.get('/api/admin/campaigns', () => HttpResponse.json({ items: [draft], total: 1 })),
    );
    const { user } = await renderAdmin('/admin/campaigns');
    await user.click(await screen.findByRole('button', { name: 'Edit Quiet draft' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Campaign' });
    await screen.findByText(/Agency default: Agency News/, {}, SLOW);
    expect(within(dialog).getByRole('switch', { name: 'Track opens' })).not.toBeChecked();
    expect(within(dialog).getByRole('switch', { name: 'Track clicks' })).not.toBeChecked();
  });
});
