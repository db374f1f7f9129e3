import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildCampaign, buildCampaignSettings } from '../../testing/admin-factory';
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

describe('the sender of a campaign in the editor', () => {
  it('offers the agency default and the allowed senders, and saves the one chosen with a Reply-To', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('From the team');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Hello');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>Hello</p>');

    const from = within(dialog).getByRole('combobox', { name: /^From/ });
    expect(from).toHaveTextContent('Agency default: Agency News <news@agency.test>');
    await user.click(from);
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Agency default: Agency News <news@agency.test>',
      'Agency News <news@agency.test>',
      'Agency Team <team@agency.test>',
    ]);
    await user.click(screen.getByRole('option', { name: 'Agency Team <team@agency.test>' }));
    expect(within(dialog).getByText('Empty: replies go to hello@agency.test')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('textbox', { name: /^Reply-To/ }));
    await user.paste('sales@agency.test');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully', {}, SLOW)).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({
      fromAddress: 'team@agency.test',
      replyTo: 'sales@agency.test',
    });
  });

  it("shows the API's refusal of a From under the field", async () => {
    server.use(
      recordAdminCalls('post', '/campaigns', () =>
        HttpResponse.json(
          {
            error: {
              code: 'UNPROCESSABLE',
              message: 'This From address is not allowed',
              fields: { fromAddress: 'Choose one of the From addresses an admin allows' },
            },
          },
          { status: 422 },
        ),
      ).handler,
    );
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('Refused');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Hello');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>Hello</p>');
    await user.click(within(dialog).getByRole('combobox', { name: /^From/ }));
    await user.click(await screen.findByRole('option', { name: 'Agency Team <team@agency.test>' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(
      await within(dialog).findByText('Choose one of the From addresses an admin allows', {}, SLOW),
    ).toBeInTheDocument();
  });

  it("starts a new campaign in the agency's default language", async () => {
    server.use(
      http.get('/api/admin/campaigns/settings', () =>
        HttpResponse.json(buildCampaignSettings({ defaultLocale: 'fr' })),
      ),
    );
    const { dialog } = await openEditor();
    expect(within(dialog).getByRole('combobox', { name: /^Default language/ })).toHaveTextContent(
      'French',
    );
  });
});
