import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildContactDetail, buildLead, pageOf } from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const leadCards = () => findCardList('Leads');

describe('Leads', () => {
  it('lists the leads with their stage, value, source and assignee, and deletes one after confirming', async () => {
    const removal = recordAdminCalls(
      'delete',
      '/leads/:id',
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(
      removal.handler,
      adminList('/leads', [
        buildLead({ id: 'l-4', name: 'Leila Mansour', status: 'proposal', estimatedValue: 12000 }),
        buildLead({
          name: 'Youssef Ben Ali',
          company: undefined,
          status: 'won',
          source: 'enquiry',
          estimatedValue: undefined,
          assignee: { id: 'u2', username: 'karim' },
        }),
      ]),
    );
    const { user } = await renderAdmin('/admin/leads');

    const grid = await findTable('Leads');
    const leila = (await within(grid).findByText('Leila Mansour')).closest('[role="row"]');
    expect(leila).toHaveTextContent('Proposal');
    expect(leila).toHaveTextContent('12,000');
    expect(leila).toHaveTextContent('Entered by staff');
    expect(leila).toHaveTextContent('Unassigned');
    const youssef = within(grid).getByText('Youssef Ben Ali').closest('[role="row"]');
    expect(youssef).toHaveTextContent('Won');
    expect(youssef).toHaveTextContent('Website enquiry');
    expect(youssef).toHaveTextContent('Not set');
    expect(youssef).toHaveTextContent('karim');

    await user.click(within(grid).getByRole('button', { name: 'Delete Leila Mansour' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Leila Mansour?' });
    expect(removal.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete Lead' }));
    expect(await screen.findByText('Lead deleted successfully')).toBeInTheDocument();
    expect(removal.calls[0]?.url.pathname).toBe(`${ADMIN}/leads/l-4`);
  });

  it('shows loading, empty (with a way to add) and error states', async () => {
    server.use(adminPending('get', '/leads'));
    const loading = await renderAdmin('/admin/leads', { mobile: true });
    expect(await screen.findByRole('progressbar', { name: 'Loading...' })).toBeInTheDocument();
    loading.unmount();

    server.use(adminList('/leads', []));
    const empty = await renderAdmin('/admin/leads', { mobile: true });
    expect(await screen.findByText('No leads yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add Lead' })).toHaveLength(2);
    empty.unmount();

    server.use(adminFailure('get', '/leads', 500));
    await renderAdmin('/admin/leads', { mobile: true });
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
  });

  it('filters by pipeline stage through the API and keeps the stage in the address', async () => {
    const { handler, calls } = recordAdminCalls('get', '/leads', () =>
      HttpResponse.json(pageOf([buildLead()])),
    );
    server.use(handler);
    const { user, location } = await renderAdmin('/admin/leads', { mobile: true });
    await leadCards();
    expect(calls.at(-1)?.url.searchParams.get('status')).toBeNull();

    const stages = screen.getByRole('tablist', { name: 'Pipeline stage' });
    await user.click(within(stages).getByRole('tab', { name: 'Qualified' }));

    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('status')).toBe('qualified'));
    expect(new URLSearchParams(location().search).get('status')).toBe('qualified');
    expect(within(stages).getByRole('tab', { name: 'Qualified' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('adds a lead with the form: the name is required, the value a number', async () => {
    const { handler, calls } = recordAdminCalls('post', '/leads', (body) =>
      HttpResponse.json(buildLead(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/leads', { mobile: true });
    await leadCards();

    await user.click(screen.getByRole('button', { name: 'Add Lead' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Lead' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    // Pasted: typing each character re-validates the whole form, slowly in jsdom.
    for (const [label, value] of [
      [/^Name/, 'Sami Trabelsi'],
      [/^Company/, 'Trabelsi Olive Oil'],
      [/^Estimated value/, '4500'],
    ] as const) {
      await user.click(within(dialog).getByLabelText(label));
      await user.paste(value);
    }
    await user.click(within(dialog).getByRole('combobox', { name: 'Stage' }));
    await user.click(await screen.findByRole('option', { name: 'Contacted' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Lead' }));

    expect(await screen.findByText('Lead created successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({
      name: 'Sami Trabelsi',
      company: 'Trabelsi Olive Oil',
      estimatedValue: 4500,
      status: 'contacted',
      source: 'manual',
    });
  });

  it('opens a lead at its own address, edits it, and says when saving fails', async () => {
    server.use(
      adminList('/leads', [buildLead({ id: 'l-1', name: 'Leila Mansour' })]),
      http.get(`${ADMIN}/leads/l-1`, () =>
        HttpResponse.json(buildLead({ id: 'l-1', name: 'Leila Mansour', status: 'new' })),
      ),
    );
    const { handler, calls } = recordAdminCalls('put', '/leads/l-1', (body) =>
      HttpResponse.json(buildLead({ ...(body as object), id: 'l-1' })),
    );
    server.use(handler);
    const { user, location } = await renderAdmin('/admin/leads/l-1', { mobile: true });

    const dialog = await screen.findByRole('dialog', { name: 'Edit Lead' }, SECTION_LOAD);
    expect(within(dialog).getByLabelText(/^Name/)).toHaveValue('Leila Mansour');
    await user.click(within(dialog).getByRole('combobox', { name: 'Stage' }));
    await user.click(await screen.findByRole('option', { name: 'Won' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Lead updated successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toMatchObject({ name: 'Leila Mansour', status: 'won' });
    await waitFor(() => expect(location().pathname).toBe('/admin/leads'));

    server.use(adminFailure('put', '/leads/l-1', 500, { message: 'The store is unavailable' }));
    await user.click(await screen.findByRole('link', { name: /Leila Mansour/ }));
    const again = await screen.findByRole('dialog', { name: 'Edit Lead' });
    await user.click(within(again).getByRole('button', { name: 'Save Changes' }));
    const toast = (await screen.findByText('The store is unavailable')).parentElement;
    expect(toast).toHaveTextContent('Error');
    expect(screen.getByRole('dialog', { name: 'Edit Lead' })).toBeInTheDocument();
  });

  it('shows the originating enquiry on a converted lead', async () => {
    server.use(
      http.get(`${ADMIN}/leads/l-2`, () =>
        HttpResponse.json(
          buildLead({ id: 'l-2', name: 'Amira Haddad', source: 'enquiry', contactId: 'c-9' }),
        ),
      ),
      http.get(`${ADMIN}/contacts/c-9`, () =>
        HttpResponse.json(
          buildContactDetail({
            id: 'c-9',
            firstName: 'Amira',
            lastName: 'Haddad',
            service: 'web-design',
            message: 'We need a new shop website.',
          }),
        ),
      ),
    );
    const { user, location } = await renderAdmin('/admin/leads/l-2', { role: 'viewer' });

    const dialog = await screen.findByRole('dialog', { name: 'Amira Haddad' }, SECTION_LOAD);
    const enquiry = await within(dialog).findByRole('region', { name: 'Originating enquiry' });
    expect(await within(enquiry).findByText('We need a new shop website.')).toBeInTheDocument();
    expect(within(enquiry).getByText(/Amira Haddad · Web Design/)).toBeInTheDocument();

    await user.click(within(enquiry).getByRole('link', { name: 'Open the enquiry' }));
    await waitFor(() => expect(location().pathname).toBe('/admin/contacts/c-9'));
  });

  it('says so when the enquiry of a converted lead was deleted', async () => {
    server.use(
      http.get(`${ADMIN}/leads/l-3`, () =>
        HttpResponse.json(buildLead({ id: 'l-3', source: 'enquiry', contactId: 'c-gone' })),
      ),
      adminFailure('get', '/contacts/c-gone', 404, { code: 'NOT_FOUND', message: 'Not found' }),
    );
    await renderAdmin('/admin/leads/l-3', { mobile: true });

    expect(
      await screen.findByText('The enquiry this lead came from was deleted.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
  });

  it('lets a viewer read a lead but not add, edit or delete one', async () => {
    server.use(
      adminList('/leads', [buildLead({ id: 'l-5', name: 'Leila Mansour' })]),
      http.get(`${ADMIN}/leads/l-5`, () =>
        HttpResponse.json(buildLead({ id: 'l-5', name: 'Leila Mansour', notes: 'Call in June' })),
      ),
    );
    const { user } = await renderAdmin('/admin/leads', { role: 'viewer' });
    const grid = await findTable('Leads');
    await within(grid).findByText('Leila Mansour');

    expect(screen.queryByRole('button', { name: 'Add Lead' })).not.toBeInTheDocument();
    expect(within(grid).queryByRole('button', { name: 'Delete Leila Mansour' })).toBeNull();

    await user.click(within(grid).getByRole('link', { name: 'Open Leila Mansour' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leila Mansour' });
    expect(within(dialog).getByText('Call in June')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });

  describe('on a phone (375 px)', () => {
    it('deletes a lead from its card, by keyboard, after confirming', async () => {
      const removal = recordAdminCalls(
        'delete',
        '/leads/:id',
        () => new HttpResponse(null, { status: 204 }),
      );
      server.use(
        removal.handler,
        adminList('/leads', [buildLead({ id: 'l-6', name: 'Leila Mansour' })]),
      );
      const { user } = await renderAdmin('/admin/leads', { mobile: true });
      const cards = await leadCards();

      const remove = within(cards).getByRole('button', { name: 'Delete Leila Mansour' });
      // A button of its own beside the card's link, reached and pressed from the keyboard.
      expect(remove.closest('a')).toBeNull();
      act(() => remove.focus());
      expect(remove).toHaveFocus();
      await user.keyboard('{Enter}');
      const confirm = await screen.findByRole('dialog', { name: 'Delete Leila Mansour?' });
      expect(removal.calls).toHaveLength(0);
      await user.click(within(confirm).getByRole('button', { name: 'Delete Lead' }));

      expect(await screen.findByText('Lead deleted successfully')).toBeInTheDocument();
      expect(removal.calls[0]?.url.pathname).toBe(`${ADMIN}/leads/l-6`);
    });

    it('shows no delete on the cards of a viewer', async () => {
      server.use(adminList('/leads', [buildLead({ name: 'Leila Mansour' })]));
      await renderAdmin('/admin/leads', { role: 'viewer', mobile: true });
      const cards = await leadCards();

      expect(within(cards).getByText('Leila Mansour')).toBeInTheDocument();
      expect(within(cards).queryByRole('button', { name: 'Delete Leila Mansour' })).toBeNull();
    });
  });
});
