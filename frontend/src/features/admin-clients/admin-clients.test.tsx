import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildClient } from '../../testing/admin-factory';
import { findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

describe('Clients', () => {
  it('lists the real client records with budget, industry and status', async () => {
    server.use(
      adminList('/clients', [
        buildClient({ companyName: 'Carthage Bakeries', monthlyBudget: 1500.5, status: 'active' }),
        buildClient({
          companyName: 'Sfax Textiles',
          monthlyBudget: undefined,
          industry: undefined,
          status: 'potential',
        }),
      ]),
    );
    await renderAdmin('/admin/clients');

    const grid = await findTable('Clients');
    const carthage = (await within(grid).findByText('Carthage Bakeries')).closest('[role="row"]');
    expect(carthage).toHaveTextContent('1,500.50');
    expect(carthage).toHaveTextContent('Retail');
    expect(carthage).toHaveTextContent('Active');
    const sfax = within(grid).getByText('Sfax Textiles').closest('[role="row"]');
    expect(sfax).toHaveTextContent('Potential');
    expect(sfax).toHaveTextContent('Not set');
  });

  it('shows loading, empty (with a way to add) and error states', async () => {
    server.use(adminPending('get', '/clients'));
    const loading = await renderAdmin('/admin/clients', { mobile: true });
    expect(await screen.findByRole('progressbar', { name: 'Loading...' })).toBeInTheDocument();
    loading.unmount();

    server.use(adminList('/clients', []));
    const empty = await renderAdmin('/admin/clients', { mobile: true });
    expect(await screen.findByText('No clients yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add Client' })).toHaveLength(2);
    empty.unmount();

    server.use(adminFailure('get', '/clients', 500));
    await renderAdmin('/admin/clients', { mobile: true });
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
  });

  it("adds a client with the spec's modal: required fields, a URL website, a numeric budget", async () => {
    const { handler, calls } = recordAdminCalls('post', '/clients', (body) =>
      HttpResponse.json(buildClient(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/clients', { mobile: true });

    await user.click(screen.getByRole('button', { name: 'Add Client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Client' });
    const field = (label: RegExp) => within(dialog).getByLabelText(label);
    expect(field(/^Website/)).toHaveAttribute('type', 'url');
    expect(field(/^Monthly Budget/)).toHaveAttribute('step', '0.01');
    expect(field(/^Monthly Budget/)).toHaveAttribute('min', '0');
    expect(within(dialog).getByRole('combobox', { name: 'Status' })).toHaveTextContent('Active');

    await user.type(field(/^Website/), 'carthage.tn');
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));
    expect(await within(dialog).findAllByText('This field is required')).toHaveLength(2);
    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Please enter a valid URL starting with http:// or https://'),
    ).toBeInTheDocument();

    await user.type(field(/^Company Name/), 'Carthage Bakeries');
    await user.type(field(/^Contact Person/), 'Sami');
    await user.type(field(/^Email/), 'sami@carthage.tn');
    await user.clear(field(/^Website/));
    await user.type(field(/^Website/), 'https://carthage.tn');
    await user.type(field(/^Monthly Budget/), '1500.50');
    await user.click(within(dialog).getByRole('combobox', { name: 'Industry' }));
    await user.click(await screen.findByRole('option', { name: 'Retail' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));

    expect(await screen.findByText('Client created successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      companyName: 'Carthage Bakeries',
      contactPerson: 'Sami',
      email: 'sami@carthage.tn',
      website: 'https://carthage.tn',
      monthlyBudget: 1500.5,
      industry: 'retail',
      status: 'active',
    });
  });

  it("says why a client was not created, in the server's words or the spec's", async () => {
    server.use(adminFailure('post', '/clients', 500, { message: '' }));
    const { user } = await renderAdmin('/admin/clients', { mobile: true });
    await user.click(screen.getByRole('button', { name: 'Add Client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Client' });
    await user.type(within(dialog).getByLabelText(/^Company Name/), 'Carthage Bakeries');
    await user.type(within(dialog).getByLabelText(/^Contact Person/), 'Sami');
    await user.type(within(dialog).getByLabelText(/^Email/), 'sami@carthage.tn');
    await user.click(within(dialog).getByRole('button', { name: 'Add Client' }));

    expect(await screen.findByText('Failed to create client')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add New Client' })).toBeInTheDocument();
  });

  it('edits a client, and deletes one after confirming', async () => {
    const client = buildClient({ companyName: 'Carthage Bakeries' });
    server.use(adminList('/clients', [client]));
    const update = recordAdminCalls('put', `/clients/${client.id}`, (body) =>
      HttpResponse.json({ ...client, ...(body as object) }),
    );
    const remove = recordAdminCalls(
      'delete',
      `/clients/${client.id}`,
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(update.handler, remove.handler);
    const { user } = await renderAdmin('/admin/clients', { mobile: true });

    await user.click(
      await screen.findByRole('button', { name: 'Edit Carthage Bakeries' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Edit Client' });
    await user.clear(within(dialog).getByLabelText(/^Contact Person/));
    await user.type(within(dialog).getByLabelText(/^Contact Person/), 'Hedi');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Client updated successfully')).toBeInTheDocument();
    expect(update.calls[0]?.body).toMatchObject({ contactPerson: 'Hedi', monthlyBudget: 1500.5 });

    await user.click(screen.getByRole('button', { name: 'Delete Carthage Bakeries' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Carthage Bakeries?' });
    expect(remove.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete Client' }));
    expect(await screen.findByText('Client deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(remove.calls).toHaveLength(1));
  });

  it('lets a viewer read the clients but not add, edit or delete them', async () => {
    await renderAdmin('/admin/clients', { role: 'viewer', mobile: true });

    expect(await screen.findByText('Carthage Bakeries', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Client' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) / })).not.toBeInTheDocument();
  });
});
