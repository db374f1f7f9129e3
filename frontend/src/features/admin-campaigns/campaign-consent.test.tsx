import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildAudience, buildCampaign } from '../../testing/admin-factory';
import { findCardList, renderAdmin } from '../../testing/admin-render';
import { ADMIN, adminList, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

/** The editor's audience part: who is left out for lack of consent, and the admin's lawful basis. */
const audience = buildAudience({
  contacts: 40,
  all: 150,
  withoutConsent: { contacts: 25, all: 20 },
});

function useAudience() {
  server.use(http.get(`${ADMIN}/campaigns/audience`, () => HttpResponse.json(audience)));
}

async function openEditor(name: string, role: 'admin' | 'manager' = 'admin') {
  const rendered = await renderAdmin('/admin/campaigns', { mobile: true, role });
  await findCardList('Campaigns');
  await rendered.user.click(screen.getByRole('button', { name: `Edit ${name}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Campaign' });
  return { ...rendered, dialog };
}

describe('the campaign editor and consent', () => {
  it('says how many enquiry contacts are left out for lack of consent, for Everyone and for contacts', async () => {
    useAudience();
    server.use(adminList('/campaigns', [buildCampaign({ name: 'Spring offer' })]));
    const { user, dialog } = await openEditor('Spring offer');

    expect(
      await within(dialog).findByText(
        'Enquiry contacts left out because they did not tick “send me news” on the contact form: 20',
      ),
    ).toBeInTheDocument();
    const recipients = within(dialog).getByRole('combobox', { name: 'Recipients' });
    expect(recipients).toHaveTextContent('Everyone (contacts and subscribers) · 150');

    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: /^Enquiry contacts/ }));
    expect(
      await within(dialog).findByText(/did not tick “send me news” on the contact form: 25$/),
    ).toBeInTheDocument();

    await user.click(recipients);
    await user.click(await screen.findByRole('option', { name: /^Newsletter subscribers/ }));
    await waitFor(() => expect(within(dialog).queryByText(/send me news/)).not.toBeInTheDocument());
  });

  it('lets an admin choose a lawful basis, says what it means, counts those it adds and sends it', async () => {
    useAudience();
    const campaign = buildCampaign({ id: 'c-basis', name: 'Spring offer' });
    server.use(adminList('/campaigns', [campaign]));
    const { handler, calls } = recordAdminCalls('put', '/campaigns/:id', () =>
      HttpResponse.json({ ...campaign, enquiryLawfulBasis: 'legitimate-interest' }),
    );
    server.use(handler);
    const { user, dialog } = await openEditor('Spring offer');

    const basis = await within(dialog).findByRole('combobox', {
      name: 'Lawful basis for enquiry contacts without consent',
    });
    await user.click(basis);
    await user.click(await screen.findByRole('option', { name: 'Legitimate interest' }));

    expect(
      await within(dialog).findByText(/they asked about our services.*\(soft opt-in\)/),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'Enquiry contacts without consent mailed too, on the basis “Legitimate interest”: 20',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Recipients' })).toHaveTextContent(
      'Everyone (contacts and subscribers) · 170',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ enquiryLawfulBasis: 'legitimate-interest' });
  });

  it('shows a manager the basis an admin chose without letting them choose one', async () => {
    useAudience();
    server.use(
      adminList('/campaigns', [
        buildCampaign({ name: 'Client news', enquiryLawfulBasis: 'contract' }),
      ]),
    );
    const { dialog } = await openEditor('Client news', 'manager');

    const basis = await within(dialog).findByRole('combobox', {
      name: 'Lawful basis for enquiry contacts without consent',
    });
    expect(basis).toHaveTextContent('Contract');
    expect(basis).toHaveAttribute('aria-disabled', 'true');
    expect(within(dialog).getByText(/Only an admin can choose a basis/)).toBeInTheDocument();
  });

  it('asks before a send with the count the send will mail, the basis included', async () => {
    useAudience();
    server.use(
      adminList('/campaigns', [
        buildCampaign({
          name: 'Client news',
          recipientType: 'contacts',
          enquiryLawfulBasis: 'contract',
        }),
      ]),
    );
    const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
    await findCardList('Campaigns');

    await user.click(screen.getByRole('button', { name: 'Send Client news' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send “Client news”?' });
    expect(
      await within(confirm).findByText(
        'It will be mailed to 65 recipients (contacts). Sending cannot be undone.',
      ),
    ).toBeInTheDocument();
  });
});
