import type { AgencySettingsDto } from '@agency/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildAgencySettings } from '../../testing/admin-factory';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import { recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';

const ROUTE = '/agency-settings';

// A big form in jsdom, while other suites share the two cores.
jest.setTimeout(60_000);

/** The settings as a server keeps them: each PUT replaces them and is answered with them. */
function storedSettings(initial: AgencySettingsDto = buildAgencySettings()) {
  let stored = initial;
  const read = recordAdminCalls('get', ROUTE, () => HttpResponse.json(stored));
  const write = recordAdminCalls('put', ROUTE, (body) => {
    stored = {
      ...(body as AgencySettingsDto),
      updatedAt: '2030-01-02T10:00:00.000Z',
      updatedBy: 'rim',
    };
    return HttpResponse.json(stored);
  });
  server.use(read.handler, write.handler);
  return { writes: write.calls };
}

async function agencyForm() {
  await screen.findByRole('heading', { name: 'Agency' }, SECTION_LOAD);
  return screen.findByRole('form', { name: 'Agency' }, SECTION_LOAD);
}

describe('the Agency section of Settings', () => {
  it('saves the postal address and a French footer, and says so', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    expect(within(form).getByText(/Not saved yet/)).toBeInTheDocument();

    await user.click(within(form).getByRole('textbox', { name: /^Postal address/ }));
    await user.paste('12 Rue de Marseille, 1000 Tunis');
    const frenchFooter = within(
      within(form).getByRole('group', { name: 'Name and mail texts in French' }),
    ).getByRole('textbox', { name: /^Footer text/ });
    await user.clear(frenchFooter);
    await user.paste('Vous êtes abonné à nos nouvelles.');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));

    expect(await screen.findByText('Agency settings saved')).toBeInTheDocument();
    expect(writes).toHaveLength(1);
    expect(writes[0]?.body).toMatchObject({
      postalAddress: '12 Rue de Marseille, 1000 Tunis',
      languages: { fr: { footer: 'Vous êtes abonné à nos nouvelles.' } },
      defaultFrom: 'news@agency.test',
      timeZone: 'Africa/Tunis',
    });
    expect(await within(form).findByText(/Last changed by rim/)).toBeInTheDocument();
  });

  it('checks the time zone with the API schema and sends nothing while it is wrong', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    const zone = within(form).getByRole('textbox', { name: /^Time zone/ });
    await user.clear(zone);
    await user.paste('Mars/Olympus');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));
    expect(
      await within(form).findByText('Must be an IANA time zone such as Africa/Tunis'),
    ).toBeInTheDocument();
    expect(zone).toHaveAttribute('aria-invalid', 'true');
    expect(writes).toHaveLength(0);
  });

  it('adds a sender that can become the default From', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    await user.click(within(form).getByRole('button', { name: 'Add a sender' }));
    const names = within(form).getAllByRole('textbox', { name: /^Sender name/ });
    const addresses = within(form).getAllByRole('textbox', { name: /^Sender address/ });
    await user.click(names[2] as HTMLElement);
    await user.paste('Agency Sales');
    await user.click(addresses[2] as HTMLElement);
    await user.paste('sales@agency.test');
    await user.click(within(form).getByRole('combobox', { name: /^Default From/ }));
    await user.click(
      await screen.findByRole('option', { name: 'Agency Sales <sales@agency.test>' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.body).toMatchObject({
      defaultFrom: 'sales@agency.test',
      senders: [
        { name: 'Agency News', address: 'news@agency.test' },
        { name: 'Agency Team', address: 'team@agency.test' },
        { name: 'Agency Sales', address: 'sales@agency.test' },
      ],
    });
  });

  it('saves the tracking defaults, the individual mode and the key retention', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    const tracking = within(form).getByRole('group', { name: 'Tracking' });
    const days = within(tracking).getByRole('spinbutton', {
      name: /^Days before the tracking key is destroyed/,
    });
    expect(days).toHaveValue(30);
    expect(
      within(tracking).getByRole('switch', { name: 'New campaigns track opens' }),
    ).toBeChecked();
    await user.click(within(tracking).getByRole('switch', { name: 'New campaigns track clicks' }));
    expect(within(tracking).getByRole('radio', { name: /^Anonymous/ })).toBeChecked();
    expect(within(tracking).queryByRole('alert')).not.toBeInTheDocument();
    const individual = within(tracking).getByRole('radio', { name: /^Individual/ });
    expect(individual).toHaveAccessibleDescription(/who opened and who clicked which link/);
    await user.click(individual);
    expect(within(tracking).getByRole('alert')).toHaveTextContent(
      'Individual mode keeps who opened and clicked each campaign',
    );
    await user.clear(days);
    await user.type(days, '90');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));

    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.body).toMatchObject({
      tracking: { opens: true, clicks: false, mode: 'individual', keyRetentionDays: 90 },
      // Saving other settings keeps the retention rules as they were.
      retention: { enquiryMonths: null, activityMonths: 24 },
    });
  });

  it('refuses a key retention outside 1 to 365 days and sends nothing', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    const days = within(form).getByRole('spinbutton', {
      name: /^Days before the tracking key is destroyed/,
    });
    await user.clear(days);
    await user.type(days, '400');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));
    expect(await within(form).findByText('Must be at most 365')).toBeInTheDocument();
    expect(days).toHaveAttribute('aria-invalid', 'true');
    expect(writes).toHaveLength(0);
  });

  it('turns on the enquiries’ anonymisation, shortens the activity log and shows the last run', async () => {
    const { writes } = storedSettings(
      buildAgencySettings({
        retentionReport: {
          ranAt: '2030-01-02T03:00:00.000Z',
          unconfirmedSignups: 3,
          anonymisedEnquiries: 0,
          activityEntries: 12,
        },
      }),
    );
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    const retention = within(form).getByRole('group', { name: 'Retention' });
    expect(retention).toHaveTextContent('not confirmed within 7 days are deleted');
    expect(within(retention).getByRole('status')).toHaveTextContent(
      /3 unconfirmed sign-ups deleted, 0 enquiries anonymised, 12 activity entries deleted/,
    );
    expect(within(retention).getByRole('alert')).toHaveTextContent('cannot be undone');
    expect(
      within(retention).queryByRole('spinbutton', { name: /^Months before an enquiry/ }),
    ).not.toBeInTheDocument();
    await user.click(within(retention).getByRole('switch', { name: 'Anonymise old enquiries' }));
    const enquiryMonths = within(retention).getByRole('spinbutton', {
      name: /^Months before an enquiry/,
    });
    expect(enquiryMonths).toHaveAccessibleDescription(/removed for good/);
    await user.clear(enquiryMonths);
    await user.type(enquiryMonths, '36');
    const activityMonths = within(retention).getByRole('spinbutton', {
      name: /^Months the activity log is kept/,
    });
    await user.clear(activityMonths);
    await user.type(activityMonths, '12');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));

    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.body).toMatchObject({ retention: { enquiryMonths: 36, activityMonths: 12 } });
  });

  it('refuses an activity log kept under a month and sends nothing', async () => {
    const { writes } = storedSettings();
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    const months = within(form).getByRole('spinbutton', {
      name: /^Months the activity log is kept/,
    });
    await user.clear(months);
    await user.type(months, '0');
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));
    expect(await within(form).findByText('Must be at least 1')).toBeInTheDocument();
    expect(writes).toHaveLength(0);
  });

  it('shows a refusal of the server under its field, with a failure message', async () => {
    storedSettings();
    server.use(
      recordAdminCalls('put', ROUTE, () =>
        HttpResponse.json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Some fields are invalid',
              fields: { replyTo: 'Please enter a valid email address' },
            },
          },
          { status: 400 },
        ),
      ).handler,
    );
    const { user } = await renderAdmin('/admin/settings');
    const form = await agencyForm();
    await user.click(within(form).getByRole('button', { name: 'Save agency settings' }));
    expect(await screen.findByText('The agency settings could not be saved')).toBeInTheDocument();
    expect(await within(form).findByText('Please enter a valid email address')).toBeInTheDocument();
  });

  it('is not shown to a manager', async () => {
    storedSettings();
    await renderAdmin('/admin/settings', { role: 'manager' });
    await screen.findByRole('heading', { name: 'Change your password' }, SECTION_LOAD);
    expect(screen.queryByRole('heading', { name: 'Agency' })).not.toBeInTheDocument();
  });

  it('shows in Arabic at 375 px', async () => {
    storedSettings();
    await renderAdmin('/admin/settings', { mobile: true });
    await agencyForm();
    try {
      await act(() => i18n.changeLanguage('ar'));
      expect(
        await screen.findByRole('heading', { name: 'الوكالة' }, SECTION_LOAD),
      ).toBeInTheDocument();
      expect(
        await screen.findByRole('button', { name: 'حفظ إعدادات الوكالة' }, SECTION_LOAD),
      ).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
