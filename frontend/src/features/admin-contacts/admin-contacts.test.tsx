import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildContact,
  buildContactDetail,
  buildLead,
  keysetPageOf,
} from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminKeysetList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

// Found by its label: role queries are slow on a page this size.
const table = () => findTable('Contacts');

// The dialogs and the export behave alike at any width; they are tested over the phone's
// card list, which renders far faster than the desktop table in jsdom.
describe('Contacts section', () => {
  it('shows the enquiries in a table with their status and notification state', async () => {
    server.use(
      adminKeysetList('/contacts', [
        buildContact({
          firstName: 'Amira',
          lastName: 'Ben Salah',
          status: 'new',
          mailState: 'sent',
        }),
        buildContact({
          firstName: 'Karim',
          lastName: 'Jlassi',
          status: 'replied',
          mailState: 'failed',
        }),
      ]),
    );
    await renderAdmin('/admin/contacts');

    const grid = await table();
    const amira = (await within(grid).findByText('Amira Ben Salah')).closest('[role="row"]');
    const karim = within(grid).getByText('Karim Jlassi').closest('[role="row"]');
    expect(amira).toHaveTextContent('New');
    expect(amira).toHaveTextContent('Web Design & Development');
    expect(karim).toHaveTextContent('Replied');
    expect(karim).toHaveTextContent('Failed');
  });

  it('shows a loading state while the page of contacts is on its way', async () => {
    server.use(adminPending('get', '/contacts'));
    await renderAdmin('/admin/contacts');

    const grid = await table();
    expect(grid.closest('[aria-busy="true"]')).not.toBeNull();
  });

  it('says there are no contacts yet when nobody has written', async () => {
    server.use(adminKeysetList('/contacts', []));
    await renderAdmin('/admin/contacts');

    expect(await screen.findByText('No contacts yet', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    server.use(adminFailure('get', '/contacts', 500));
    const { user } = await renderAdmin('/admin/contacts');

    expect(
      await screen.findByText('This list could not be loaded.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    server.use(adminKeysetList('/contacts', [buildContact({ firstName: 'Back' })]));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(await table()).findByText('Back Ben Salah')).toBeInTheDocument();
  });

  it('asks the API for the order, search and position, and keeps them in the address', async () => {
    const { handler, calls } = recordAdminCalls('get', '/contacts', (_body, request) => {
      const after = new URL(request.url).searchParams.get('after');
      return HttpResponse.json(
        after
          ? keysetPageOf([buildContact({ firstName: 'Second' })], {
              total: 60,
              next: 'position-3',
              previous: 'position-2-start',
            })
          : keysetPageOf([buildContact()], { total: 60, next: 'position-2' }),
      );
    });
    server.use(handler);
    const { user, location } = await renderAdmin('/admin/contacts');
    await table();
    expect(calls[0]?.url.searchParams.get('sort')).toBe('-createdAt');

    await user.type(
      screen.getByRole('searchbox', { name: 'Search by name, e-mail or domain' }),
      'amira',
    );
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('search')).toBe('amira'));
    expect(location().search).toContain('search=amira');
    expect(screen.getByText(/start with what you type/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('after')).toBe('position-2'));
    const second = calls.at(-1)?.url.searchParams;
    expect(second?.has('page')).toBe(false);
    expect(second?.get('search')).toBe('amira');
    expect(second?.get('pageSize')).toBe('25');
    expect(location().search).toContain('page=2');
    expect(await within(await table()).findByText('Second Ben Salah')).toBeInTheDocument();

    // Back to page 1 is the top of the list, with whatever arrived meanwhile.
    await user.click(screen.getByRole('button', { name: /previous page/i }));
    await waitFor(() => expect(location().search).not.toContain('after='));
    expect(location().search).not.toMatch(/before=|page=/);
    expect(await within(await table()).findByText('Amira Ben Salah')).toBeInTheDocument();
  });

  it('goes back a page by the position the API gave', async () => {
    const { handler, calls } = recordAdminCalls('get', '/contacts', () =>
      HttpResponse.json(
        keysetPageOf([buildContact()], { total: 60, next: 'p4', previous: 'p3-start' }),
      ),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/contacts?after=p3&page=3', { mobile: true });
    await findCardList('Contacts');
    expect(calls[0]?.url.searchParams.get('after')).toBe('p3');
    expect(screen.getByText(/Page 3/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('before')).toBe('p3-start'));
  });

  it('stays on a page reached by position when the kept total lags behind it', async () => {
    const { handler, calls } = recordAdminCalls('get', '/contacts', () =>
      HttpResponse.json(
        keysetPageOf([buildContact({ firstName: 'Late' })], {
          total: 10,
          next: 'p4',
          previous: 'p3-start',
        }),
      ),
    );
    server.use(handler);
    const { location } = await renderAdmin('/admin/contacts?after=p3&page=3');
    expect(await within(await table()).findByText('Late Ben Salah')).toBeInTheDocument();
    expect(screen.getByText(/51–51 of more than 51/)).toBeInTheDocument();
    expect(location().search).toContain('page=3');
    expect(calls.some(({ url }) => url.searchParams.has('before'))).toBe(false);
  });

  it('says "more than N" when the API stopped counting the matches', async () => {
    server.use(
      http.get(`${ADMIN}/contacts`, () =>
        HttpResponse.json(
          keysetPageOf([buildContact()], { total: 1000, totalKind: 'atLeast', next: 'p2' }),
        ),
      ),
    );
    await renderAdmin('/admin/contacts?search=a', { mobile: true });
    await findCardList('Contacts');
    expect(screen.getByText(/more than 1,000/)).toBeInTheDocument();
  });

  it('deletes an enquiry once the editor confirms', async () => {
    const contact = buildContact({ firstName: 'Spam', lastName: 'Bot' });
    server.use(adminKeysetList('/contacts', [contact]));
    const { handler, calls } = recordAdminCalls(
      'delete',
      `/contacts/${contact.id}`,
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/contacts', { role: 'editor', mobile: true });

    await user.click(
      await screen.findByRole('button', { name: 'Delete the enquiry of Spam Bot' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete the enquiry of Spam Bot?',
    });
    expect(calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(await screen.findByText('Enquiry deleted')).toBeInTheDocument();
  });

  it('offers no deletion to a viewer', async () => {
    await renderAdmin('/admin/contacts', { role: 'viewer', mobile: true });
    await findCardList('Contacts');
    expect(screen.queryByRole('button', { name: /^Delete the enquiry/ })).not.toBeInTheDocument();
  });

  it('opens an enquiry with every field and where its notification mail stands', async () => {
    const contact = buildContactDetail({
      firstName: 'Amira',
      lastName: 'Ben Salah',
      phone: '+216 20 123 456',
      message: 'We need a new website.',
      mailState: 'failed',
      mailError: '550 mailbox unavailable',
    });
    server.use(http.get(`${ADMIN}/contacts/${contact.id}`, () => HttpResponse.json(contact)));
    await renderAdmin(`/admin/contacts/${contact.id}`, { mobile: true });

    const dialog = await screen.findByRole(
      'dialog',
      { name: 'Enquiry from Amira Ben Salah' },
      SECTION_LOAD,
    );
    for (const text of [
      'amira@example.tn',
      '+216 20 123 456',
      'Web Design & Development',
      'We need a new website.',
      'French',
      'Not delivered: 550 mailbox unavailable',
    ]) {
      expect(within(dialog).getByText(text)).toBeInTheDocument();
    }
  });

  it('changes the status of an enquiry', async () => {
    const contact = buildContactDetail();
    server.use(http.get(`${ADMIN}/contacts/${contact.id}`, () => HttpResponse.json(contact)));
    const { handler, calls } = recordAdminCalls('patch', `/contacts/${contact.id}`, (body) =>
      HttpResponse.json({ ...contact, ...(body as object) }),
    );
    server.use(handler);
    const { user } = await renderAdmin(`/admin/contacts/${contact.id}`, {
      role: 'editor',
      mobile: true,
    });
    const dialog = await screen.findByRole('dialog', {}, SECTION_LOAD);

    await user.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Replied' }));

    await waitFor(() => expect(calls[0]?.body).toEqual({ status: 'replied' }));
    expect(await screen.findByText('Status updated')).toBeInTheDocument();
  });

  it('converts an enquiry to a lead and opens it', async () => {
    const contact = buildContactDetail();
    const lead = buildLead({ source: 'enquiry', contactId: contact.id });
    server.use(
      http.get(`${ADMIN}/contacts/${contact.id}`, () => HttpResponse.json(contact)),
      http.post(`${ADMIN}/contacts/${contact.id}/convert`, () =>
        HttpResponse.json(lead, { status: 201 }),
      ),
      http.get(`${ADMIN}/leads/${lead.id}`, () => HttpResponse.json(lead)),
    );
    const { user, location } = await renderAdmin(`/admin/contacts/${contact.id}`, { mobile: true });

    await user.click(await screen.findByRole('button', { name: 'Convert to lead' }, SECTION_LOAD));

    expect(await screen.findByText('Lead created successfully')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe(`/admin/leads/${lead.id}`));
  });

  it('says why a conversion failed', async () => {
    const contact = buildContactDetail();
    server.use(
      http.get(`${ADMIN}/contacts/${contact.id}`, () => HttpResponse.json(contact)),
      adminFailure('post', `/contacts/${contact.id}/convert`, 409, {
        message: 'This contact was already converted to a lead',
      }),
    );
    const { user } = await renderAdmin(`/admin/contacts/${contact.id}`, { mobile: true });

    await user.click(await screen.findByRole('button', { name: 'Convert to lead' }, SECTION_LOAD));

    expect(
      await screen.findByText('This contact was already converted to a lead'),
    ).toBeInTheDocument();
  });

  it('lets a viewer read an enquiry but neither change nor convert it, nor export', async () => {
    const contact = buildContactDetail({ status: 'replied' });
    server.use(http.get(`${ADMIN}/contacts/${contact.id}`, () => HttpResponse.json(contact)));
    await renderAdmin(`/admin/contacts/${contact.id}`, { role: 'viewer', mobile: true });

    const dialog = await screen.findByRole('dialog', {}, SECTION_LOAD);
    expect(await within(dialog).findByText('Replied')).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Status' })).not.toBeInTheDocument();
    expect(
      within(dialog).queryByRole('button', { name: 'Convert to lead' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('downloads the CSV of the filtered list from the API', async () => {
    const { handler, calls } = recordAdminCalls(
      'get',
      '/contacts/export',
      () =>
        new HttpResponse('id,email\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="contacts-2026-05-04.csv"',
          },
        }),
    );
    server.use(handler);
    const createObjectURL = jest.fn(() => 'blob:contacts');
    const revokeObjectURL = jest.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    try {
      const { user } = await renderAdmin('/admin/contacts?status=new', {
        role: 'manager',
        mobile: true,
      });

      await user.click(screen.getByRole('button', { name: 'Export CSV' }));

      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]?.download).toBe('contacts-2026-05-04.csv');
      expect(calls[0]?.url.searchParams.get('status')).toBe('new');
      expect(calls[0]?.url.searchParams.has('page')).toBe(false);
      expect(calls[0]?.url.searchParams.has('after')).toBe(false);
      expect(calls[0]?.headers.get('Authorization')).toBe('Bearer token-of-manager');
    } finally {
      click.mockRestore();
    }
  });

  it('shows cards instead of a table on a phone', async () => {
    await renderAdmin('/admin/contacts', { mobile: true });

    const cards = await findCardList('Contacts');
    expect(within(cards).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
  });
});
