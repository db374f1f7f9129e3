import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildCampaign,
  buildMailingList,
  buildTemplate,
  keysetPageOf,
} from '../../testing/admin-factory';
import { findCardList, findLoadedRecords, renderAdmin } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { buildMedia } from '../../testing/media-factory';
import { server } from '../../testing/msw-server';

const campaignCards = () => findCardList('Campaigns');

// The editor's walks fill a big form: slow in jsdom when the suites share two cores.
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

describe('the campaign editor', () => {
  it('formats from the toolbar, inserts variables, dividers and buttons, and saves every language', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns', (body) =>
      HttpResponse.json(buildCampaign(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user, dialog } = await openEditor();

    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('Spring in three languages');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Hello {{firstName}}');

    // jsdom gives ProseMirror no typing it can read back: the toolbar's own commands are used.
    const editor = within(dialog).getByRole('textbox', { name: 'Content' });
    await user.click(editor);
    await user.click(within(dialog).getByRole('button', { name: 'Heading' }));
    await user.click(within(dialog).getByRole('button', { name: 'Variables' }));
    await user.click(await screen.findByRole('menuitem', { name: /^First name/ }));
    await waitFor(() => expect(editor.querySelector('h1')).toHaveTextContent('{{firstName}}'));
    expect(within(dialog).getByRole('button', { name: 'Heading' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Divider' }));
    await waitFor(() => expect(editor.querySelector('hr')).toBeTruthy());

    await user.click(within(dialog).getByRole('button', { name: 'Button' }));
    const insert = await screen.findByRole('dialog', { name: 'Insert a button' });
    await user.type(within(insert).getByLabelText(/^Button link/), 'javascript:alert(1)');
    await user.type(within(insert).getByLabelText(/^Button text/), 'Book a call');
    await user.click(within(insert).getByRole('button', { name: 'Insert' }));
    expect(
      await within(insert).findByText('Use an https://, mailto: address or {{unsubscribeUrl}}'),
    ).toBeInTheDocument();
    await user.clear(within(insert).getByLabelText(/^Button link/));
    await user.type(within(insert).getByLabelText(/^Button link/), 'https://agency.tn/book');
    await user.click(within(insert).getByRole('button', { name: 'Insert' }));
    await waitFor(() => expect(editor.querySelector('table[data-button] a')).toBeTruthy());

    // Arabic: its own subject and content, written right to left.
    await user.click(within(dialog).getByRole('tab', { name: 'Arabic' }));
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('مرحبا {{firstName}}');
    expect(within(dialog).getByRole('textbox', { name: 'Content' })).toHaveAttribute('dir', 'rtl');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>عروض الربيع</p>');

    await user.click(
      within(dialog).getByRole('switch', { name: /Only send within a time window/ }),
    );
    await user.click(within(dialog).getByLabelText(/^Messages per minute/));
    await user.paste('120');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(await screen.findByText('Campaign created successfully', {}, SLOW)).toBeInTheDocument();
    const body = calls[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Spring in three languages',
      subject: 'Hello {{firstName}}',
      defaultLocale: 'en',
      translations: [
        { locale: 'ar', subject: 'مرحبا {{firstName}}', content: '<p>عروض الربيع</p>' },
      ],
      sendingWindow: { days: [1, 2, 3, 4, 5], start: '08:00', end: '20:00' },
      ratePerMinute: 120,
      templateId: null,
    });
    expect(body.content).toContain('<h1>{{firstName}}</h1>');
    expect(body.content).toContain('<hr>');
    expect(body.content).toContain(
      '<table data-button=""><tbody><tr><td data-button=""><a data-button="" href="https://agency.tn/book">Book a call</a></td></tr></tbody></table>',
    );
  });

  it('refuses an unknown variable and a window with no hours at save, naming them', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns', () =>
      HttpResponse.json(buildCampaign(), { status: 201 }),
    );
    server.use(handler);
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByLabelText(/^Campaign name/));
    await user.paste('Typo');
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Hi {{fristName}}');
    await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
    await user.click(within(dialog).getByLabelText('Content (HTML source)'));
    await user.paste('<p>Hello</p>');
    await user.click(
      within(dialog).getByRole('switch', { name: /Only send within a time window/ }),
    );
    const until = within(dialog).getByLabelText(/^Until/);
    await user.clear(until);
    await user.type(until, '07:00');
    await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

    expect(
      await within(dialog).findByText(
        'Unknown variable "fristName": use one of firstName, lastName, email, unsubscribeUrl, senderName',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText('The window has no hours: its end must come after its start'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('previews the mail beside the editor, in Arabic right to left, at 375 px', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaigns/preview', (body) => {
      const { subject, content, locale } = body as Record<string, string>;
      const dir = locale === 'ar' ? 'rtl' : 'ltr';
      return HttpResponse.json({
        subject: (subject ?? '').replace('{{firstName}}', 'Layla'),
        html: `<html lang="${locale}" dir="${dir}"><body>${content}</body></html>`,
        text: content,
        locale,
        dir,
      });
    });
    server.use(handler);
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('tab', { name: 'Arabic' }));
    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('مرحبا {{firstName}}');

    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    // The render waits for typing to pause, then asks the server; an earlier render (before
    // the subject was pasted) may show first.
    await waitFor(
      () => expect(within(preview).getByTestId('preview-subject')).toHaveTextContent('مرحبا Layla'),
      SLOW,
    );
    await user.click(within(preview).getByRole('button', { name: 'Phone (375 px)' }));
    const frame = within(preview).getByTitle('Mail preview in Arabic');
    expect(frame).toHaveAttribute('data-width', 'phone');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('dir="rtl"');
    // Filled in for the first sample of the audience, in the language being edited.
    const last = calls.at(-1)?.body as Record<string, unknown>;
    expect(last).toMatchObject({
      locale: 'ar',
      recipient: { email: 'layla@example.tn', firstName: 'Layla', lastName: 'Ben Ali' },
    });
  });
  it('keeps the mail on screen, in the same frame, while the next rendering is asked for', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { handler, calls } = recordAdminCalls('post', '/campaigns/preview', async (body) => {
      const { subject, locale } = body as Record<string, string>;
      // The first rendering answers at once; the ones after it wait to be released.
      if (calls.length > 1) await held;
      return HttpResponse.json({
        subject: subject ?? '',
        html: `<html><body><p>${subject ?? ''}</p></body></html>`,
        text: subject ?? '',
        locale,
        dir: 'ltr',
      });
    });
    server.use(handler);
    const { user, dialog } = await openEditor();
    const preview = within(dialog).getByRole('region', { name: 'Preview' });
    const frame = await within(preview).findByTitle('Mail preview in English', {}, SLOW);

    await user.click(within(dialog).getByLabelText(/^Email subject/));
    await user.paste('Spring');
    await waitFor(() => expect(calls).toHaveLength(2), SLOW);
    expect(within(preview).getByLabelText('Rendering the preview...')).toBeInTheDocument();
    expect(within(preview).getByTitle('Mail preview in English')).toBe(frame);

    await act(async () => release());
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<p>Spring</p>'), SLOW);
    expect(frame).toBeInTheDocument();
  });

  it('fills the preview in for a member of the lists chosen, and says when there is no one', async () => {
    const expo = buildMailingList({ name: 'Expo guests' });
    const gala = buildMailingList({ name: 'Gala 2026' });
    server.use(adminList('/lists', [expo, gala]));
    const samples = recordAdminCalls('get', '/campaigns/sample-recipients', (_body, request) => {
      const listIds = new URL(request.url).searchParams.get('listIds');
      return HttpResponse.json({
        items:
          listIds === gala.id
            ? [{ email: 'omar@gala.tn', firstName: 'Omar', lastName: 'Haddad', locale: 'en' }]
            : [],
      });
    });
    const renders = recordAdminCalls('post', '/campaigns/preview', (body) => {
      const { subject, content, locale } = body as Record<string, string>;
      return HttpResponse.json({ subject, html: content, text: content, locale, dir: 'ltr' });
    });
    server.use(samples.handler, renders.handler);
    const { user, dialog } = await openEditor();
    const preview = within(dialog).getByRole('region', { name: 'Preview' });

    await user.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
    await user.click(await screen.findByRole('option', { name: /^Members of lists/ }));
    expect(
      await within(preview).findByRole('combobox', { name: 'Sample recipient' }, SLOW),
    ).toHaveTextContent('No one in this audience yet');
    await waitFor(() =>
      expect(samples.calls.at(-1)?.url.searchParams.get('recipientType')).toBe('lists'),
    );
    expect(samples.calls.at(-1)?.url.searchParams.has('listIds')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: /^Lists/ }));
    await user.click(await screen.findByRole('option', { name: 'Gala 2026' }));
    await user.keyboard('{Escape}');
    await waitFor(
      () =>
        expect(
          within(preview).getByRole('combobox', { name: 'Sample recipient' }),
        ).toHaveTextContent('Omar Haddad'),
      SLOW,
    );
    expect(samples.calls.at(-1)?.url.searchParams.get('listIds')).toBe(gala.id);
    await waitFor(
      () =>
        expect(renders.calls.at(-1)?.body).toMatchObject({
          recipient: { email: 'omar@gala.tn', firstName: 'Omar', lastName: 'Haddad' },
        }),
      SLOW,
    );
  });
});

describe('campaign templates', () => {
  it('lists the default and the agency’s own, duplicates, and refuses a layout without {{content}}', async () => {
    const { handler, calls } = recordAdminCalls('post', '/campaign-templates', (body) =>
      HttpResponse.json(buildTemplate(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/campaigns?view=templates');
    const list = await screen.findByRole('list', { name: 'Templates' });
    expect(within(list).getByRole('listitem', { name: 'Agency (default)' })).toHaveTextContent(
      'Built in',
    );
    expect(within(list).getByRole('listitem', { name: 'Autumn' })).toHaveTextContent(
      'Used by 0 campaigns',
    );

    await user.click(screen.getByRole('button', { name: 'Duplicate Agency (default)' }));
    expect(await screen.findByText('“Agency (default) (copy)” created')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Template' });
    await user.type(within(dialog).getByLabelText(/^Template name/), 'Bare');
    const layout = within(dialog).getByLabelText(/^Layout \(HTML\)/);
    await user.clear(layout);
    await user.click(layout);
    await user.paste('<table><tr><td>{{header}}</td></tr></table>');
    await user.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    expect(
      await within(dialog).findByText('The layout must hold {{content}} where the campaign goes'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.clear(layout);
    await user.click(layout);
    await user.paste('<div>{{content}}</div>');
    await user.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ name: 'Bare', layout: '<div>{{content}}</div>' });
  });

  it('puts the logo in the header with the image picker, from the media library', async () => {
    const logo = buildMedia({ name: 'Agency logo', width: 400, height: 120 });
    const { handler, calls } = recordAdminCalls('post', '/campaign-templates', (body) =>
      HttpResponse.json(buildTemplate(body as object), { status: 201 }),
    );
    server.use(
      handler,
      http.get(`${ADMIN}/media`, () => HttpResponse.json(keysetPageOf([logo]))),
    );
    const { user } = await renderAdmin('/admin/campaigns?view=templates');
    await screen.findByRole('list', { name: 'Templates' });
    await user.click(screen.getByRole('button', { name: 'New Template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Template' });
    await user.type(within(dialog).getByLabelText(/^Template name/), 'Branded');

    const header = within(dialog).getByRole('toolbar', { name: /^Header/ });
    await user.click(within(header).getByRole('button', { name: 'Image' }));
    const picker = await screen.findByRole('dialog', { name: 'Insert an image' });
    await user.click(await within(picker).findByRole('button', { name: 'Choose Agency logo' }));
    await user.type(within(picker).getByLabelText(/^Description/), 'Agency');
    await user.click(within(picker).getByRole('button', { name: 'Insert' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Insert an image' })).not.toBeInTheDocument(),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Create Template' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect((calls[0]?.body as { header: string }).header).toContain(
      `<img src="${logo.url}" alt="Agency" width="400" height="120"`,
    );
  });

  describe('a placeholder outside text', () => {
    afterEach(async () => {
      await act(() => i18n.changeLanguage('en'));
    });

    it('refuses {{content}} inside an attribute, naming the attribute and tag in each language', async () => {
      const { handler, calls } = recordAdminCalls('post', '/campaign-templates', (body) =>
        HttpResponse.json(buildTemplate(body as object), { status: 201 }),
      );
      server.use(handler);
      const { user } = await renderAdmin('/admin/campaigns?view=templates');
      await screen.findByRole('list', { name: 'Templates' });
      await user.click(screen.getByRole('button', { name: 'New Template' }));
      const dialog = await screen.findByRole('dialog', { name: 'New Template' });
      await user.type(within(dialog).getByLabelText(/^Template name/), 'Banner');
      const layout = within(dialog).getByLabelText(/^Layout \(HTML\)/);
      await user.clear(layout);
      await user.click(layout);
      await user.paste('<img src="https://cdn.example/banner.png" alt="{{content}}">');
      await user.click(within(dialog).getByRole('button', { name: 'Create Template' }));

      expect(
        await within(dialog).findByText(
          '{{content}} may only stand in text, not inside the attribute alt of <img>',
        ),
      ).toBeInTheDocument();
      expect(layout).toHaveAttribute('aria-invalid', 'true');
      await act(() => i18n.changeLanguage('fr'));
      expect(
        await screen.findByText(
          "{{content}} ne peut figurer que dans le texte, pas dans l'attribut alt de <img>",
        ),
      ).toBeInTheDocument();
      await act(() => i18n.changeLanguage('ar'));
      expect(
        await screen.findByText('لا يوضع {{content}} إلا في النص، لا داخل السمة alt في <img>'),
      ).toBeInTheDocument();
      expect(calls).toHaveLength(0);
    });
  });

  it('does not offer to delete a template in use, and shows the server’s refusal', async () => {
    server.use(
      adminList('/campaign-templates', [
        buildTemplate({ id: 't-used', name: 'Used', usedBy: 2 }),
        buildTemplate({ id: 't-free', name: 'Free' }),
      ]),
      adminFailure('delete', '/campaign-templates/:id', 409, {
        message: 'This template is used by 1 campaign; choose another template for them first',
      }),
    );
    const { user } = await renderAdmin('/admin/campaigns?view=templates');
    await screen.findByRole('list', { name: 'Templates' });
    expect(screen.getByRole('button', { name: 'Delete Used' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Delete Free' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete “Free”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete Template' }));
    expect(
      await screen.findByText(
        'This template is used by 1 campaign; choose another template for them first',
      ),
    ).toBeInTheDocument();
  });
});

describe('scheduling', () => {
  it('schedules a draft on the agency clock, refuses a past time, and unschedules', async () => {
    server.use(
      adminList('/campaigns', [
        buildCampaign({ id: 'c-draft', name: 'Spring offer' }),
        buildCampaign({
          id: 'c-later',
          name: 'Later news',
          status: 'scheduled',
          scheduledAt: '2099-06-01T07:30:00.000Z',
        }),
      ]),
    );
    const schedule = recordAdminCalls('post', '/campaigns/:id/schedule', (body) =>
      HttpResponse.json({
        campaign: buildCampaign({
          id: 'c-draft',
          status: 'scheduled',
          scheduledAt: (body as { scheduledAt: string }).scheduledAt,
        }),
      }),
    );
    const unschedule = recordAdminCalls('post', '/campaigns/:id/unschedule', () =>
      HttpResponse.json({ campaign: buildCampaign({ id: 'c-later', status: 'draft' }) }),
    );
    server.use(schedule.handler, unschedule.handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    const cards = await campaignCards();
    // Shown on the agency's clock: 07:30 UTC is 08:30 in Tunis.
    expect(await within(cards).findByText(/Goes .*8:30/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Schedule Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule “Spring offer”' });
    expect(within(dialog).getByText(/agency's clock \(Africa\/Tunis\)/)).toBeInTheDocument();
    const date = within(dialog).getByLabelText(/^Date/);
    const time = within(dialog).getByLabelText(/^Time/);
    await user.clear(date);
    await user.type(date, '2020-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByText('The time must be in the future')).toBeInTheDocument();
    expect(schedule.calls).toHaveLength(0);

    await user.clear(date);
    await user.type(date, '2099-03-02');
    await user.clear(time);
    await user.type(time, '09:15');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Campaign scheduled')).toBeInTheDocument();
    expect(schedule.calls[0]?.url.pathname).toBe('/api/admin/campaigns/c-draft/schedule');
    // 09:15 in Tunis (UTC+1) is 08:15 UTC.
    expect(schedule.calls[0]?.body).toEqual({ scheduledAt: '2099-03-02T08:15:00.000Z' });

    await user.click(screen.getByRole('button', { name: 'Schedule Later news' }));
    const later = await screen.findByRole('dialog', { name: 'Schedule “Later news”' });
    expect(within(later).getByLabelText(/^Time/)).toHaveValue('08:30');
    await user.click(within(later).getByRole('button', { name: 'Unschedule (back to draft)' }));
    expect(await screen.findByText('Campaign back to draft')).toBeInTheDocument();
    expect(unschedule.calls[0]?.url.pathname).toBe('/api/admin/campaigns/c-later/unschedule');
  });

  it('refuses a year past 2100 under the date, as the API would, and sends nothing', async () => {
    server.use(adminList('/campaigns', [buildCampaign({ id: 'c-draft', name: 'Spring offer' })]));
    const schedule = recordAdminCalls('post', '/campaigns/:id/schedule', () =>
      HttpResponse.json({ campaign: buildCampaign({ id: 'c-draft' }) }),
    );
    server.use(schedule.handler);
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();
    await user.click(screen.getByRole('button', { name: 'Schedule Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule “Spring offer”' });
    const date = within(dialog).getByLabelText(/^Date/);
    await user.clear(date);
    await user.type(date, '2101-01-01');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription('The year must be between 2000 and 2100'),
    );
    expect(date).toHaveAttribute('aria-invalid', 'true');
    expect(schedule.calls).toHaveLength(0);
  });

  it("names the browser's zone when the agency's clock cannot be read", async () => {
    server.use(
      adminFailure('get', '/campaigns/settings', 500),
      adminList('/campaigns', [
        buildCampaign({
          id: 'c-later',
          name: 'Later news',
          status: 'scheduled',
          scheduledAt: '2099-06-01T07:30:00.000Z',
        }),
      ]),
    );
    await renderAdmin('/admin/campaigns', { mobile: true });
    const cards = await campaignCards();
    // Every time ends with its zone's name, so nobody reads it as Tunis time.
    expect(await within(cards).findByText(/^Goes .*\d:\d\d\s[AP]M\s\S+$/)).toBeInTheDocument();
  });
});

describe('starting a translation from the default language', () => {
  async function openDraft() {
    server.use(
      adminList('/campaigns', [
        buildCampaign({
          id: 'c-spring',
          name: 'Spring offer',
          status: 'draft',
          defaultLocale: 'en',
          subject: 'Hello {{firstName}}',
          content: '<p>Our spring packs</p>',
          translations: [{ locale: 'fr', subject: 'Bonjour', content: '<p>Nos offres</p>' }],
        }),
      ]),
    );
    const rendered = await renderAdmin('/admin/campaigns', { mobile: true });
    await campaignCards();
    await rendered.user.click(screen.getByRole('button', { name: 'Edit Spring offer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Campaign' });
    return { ...rendered, dialog };
  }

  it('fills an empty language at once, asks before replacing a written one, and saves both', async () => {
    const { handler, calls } = recordAdminCalls('put', '/campaigns/:id', (body) =>
      HttpResponse.json(buildCampaign(body as object)),
    );
    server.use(handler);
    const { user, dialog } = await openDraft();
    // The default language's own tab has nothing to copy from.
    expect(within(dialog).queryByRole('button', { name: 'Copy from English' })).toBeNull();

    await user.click(within(dialog).getByRole('tab', { name: 'Arabic' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy from English' }));
    expect(screen.queryByRole('dialog', { name: 'Replace the Arabic text?' })).toBeNull();
    expect(within(dialog).getByLabelText(/^Email subject/)).toHaveValue('Hello {{firstName}}');
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Content' })).toHaveTextContent(
        'Our spring packs',
      ),
    );

    await user.click(within(dialog).getByRole('tab', { name: 'French' }));
    const copy = within(dialog).getByRole('button', { name: 'Copy from English' });
    await user.click(copy);
    const confirm = await screen.findByRole('dialog', { name: 'Replace the French text?' });
    expect(confirm).toHaveTextContent(
      'The subject and content written in French are replaced by the English ones.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(copy).toHaveFocus());
    expect(within(dialog).getByLabelText(/^Email subject/)).toHaveValue('Bonjour');

    await user.click(copy);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Replace the French text?' })).getByRole(
        'button',
        { name: 'Replace' },
      ),
    );
    expect(within(dialog).getByLabelText(/^Email subject/)).toHaveValue('Hello {{firstName}}');
    await waitFor(() => expect(copy).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls).toHaveLength(1), SLOW);
    expect((calls[0]?.body as { translations: unknown }).translations).toEqual([
      { locale: 'fr', subject: 'Hello {{firstName}}', content: '<p>Our spring packs</p>' },
      { locale: 'ar', subject: 'Hello {{firstName}}', content: '<p>Our spring packs</p>' },
    ]);
  });

  it('offers nothing to copy while the default language is empty', async () => {
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('tab', { name: 'French' }));
    expect(within(dialog).getByRole('button', { name: 'Copy from English' })).toBeDisabled();
  });
});
