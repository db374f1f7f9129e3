import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildCampaign } from '../../testing/admin-factory';
import { renderAdmin } from '../../testing/admin-render';
import { recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

// The editor fills a big form: slow in jsdom when the suites share two cores.
jest.setTimeout(120_000);
const SLOW = { timeout: 15_000 };

async function openEditor() {
  const rendered = await renderAdmin('/admin/campaigns');
  const [add] = await screen.findAllByRole('button', { name: 'New Campaign' }, SLOW);
  if (add) await rendered.user.click(add);
  const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
  return { ...rendered, dialog };
}

async function writeCampaign(
  user: Awaited<ReturnType<typeof openEditor>>['user'],
  dialog: HTMLElement,
) {
  await user.click(within(dialog).getByLabelText(/^Campaign name/));
  await user.paste('Spring');
  await user.click(within(dialog).getByLabelText(/^Email subject/));
  await user.paste('Hello {{firstName}}');
  await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
  await user.click(within(dialog).getByLabelText('Content (HTML source)'));
  await user.paste('<p>Dear {{firstName}},</p>');
}

describe("the campaign editor's default fallback", () => {
  it('holds each language’s default, saves the one edited and previews with it', async () => {
    const saved = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    const previews = recordAdminCalls('post', '/campaigns/preview', () =>
      HttpResponse.json({ subject: 'Hello', html: '<p></p>', text: '', locale: 'en', dir: 'ltr' }),
    );
    server.use(saved.handler, previews.handler);
    const { user, dialog } = await openEditor();
    await writeCampaign(user, dialog);

    const english = within(dialog).getByLabelText(/^Fallback in English/);
    expect(english).toHaveValue('there');
    await user.clear(english);
    await user.type(english, 'friend');
    await user.click(within(dialog).getByRole('tab', { name: 'French' }));
    expect(within(dialog).getByLabelText(/^Fallback in French/)).toHaveValue('à vous');

    await waitFor(
      () =>
        expect(previews.calls.at(-1)?.body).toMatchObject({
          placeholderFallbacks: { en: 'friend', fr: 'à vous' },
        }),
      SLOW,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));
    expect(await screen.findByText('Campaign created successfully', {}, SLOW)).toBeInTheDocument();
    expect(saved.calls[0]?.body).toMatchObject({
      placeholderFallbacks: { en: 'friend', fr: 'à vous', ar: 'صديقنا' },
    });
  });

  it('refuses an empty default fallback before saving, under its field', async () => {
    const saved = recordAdminCalls('post', '/campaigns', () =>
      HttpResponse.json(buildCampaign(), { status: 201 }),
    );
    server.use(saved.handler);
    const { user, dialog } = await openEditor();
    await writeCampaign(user, dialog);

    await user.clear(within(dialog).getByLabelText(/^Fallback in English/));
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    const field = within(dialog).getByLabelText(/^Fallback in English/);
    await waitFor(() => expect(field).toHaveAccessibleDescription('This field is required'));
    expect(saved.calls).toEqual([]);
  });

  it('shows the reason the server gives for a fallback under its field', async () => {
    const saved = recordAdminCalls('post', '/campaigns', () =>
      HttpResponse.json(
        {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'Some fields are invalid',
            fields: { 'placeholderFallbacks.en': 'Rejected by the server' },
          },
        },
        { status: 400 },
      ),
    );
    server.use(saved.handler);
    const { user, dialog } = await openEditor();
    await writeCampaign(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    await waitFor(
      () =>
        expect(within(dialog).getByLabelText(/^Fallback in English/)).toHaveAccessibleDescription(
          'Rejected by the server',
        ),
      SLOW,
    );
  });

  it('explains the fallback syntax beside the variables it inserts', async () => {
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('button', { name: 'Variables' }));
    const menu = await screen.findByRole('menu', { name: 'Variables' });
    expect(menu).toHaveAccessibleDescription(
      'Give a placeholder a fallback for recipients without a value: {{firstName|there}}. Without one, it says the fallback set under the content.',
    );
  });
});
