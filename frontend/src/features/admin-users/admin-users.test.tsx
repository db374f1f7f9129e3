import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildActivity, buildUser, pageOf, sessionUser } from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  adminFailure,
  adminList,
  adminPending,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const me = sessionUser('admin');

describe('User Management', () => {
  it('lists the accounts with role, status and last sign-in, and the activity log', async () => {
    server.use(
      adminList('/users', [
        buildUser({ ...me, lastLoginAt: '2026-05-04T08:00:00.000Z' }),
        buildUser({ username: 'karim', email: 'karim@agency.test', role: 'editor' }),
      ]),
    );
    const activity = recordAdminCalls('get', '/activity-logs', () =>
      HttpResponse.json(
        pageOf([
          buildActivity({ actor: { id: 'x', username: 'nadia' }, action: 'client.create' }),
          buildActivity({ actor: { id: 'y', username: 'karim' }, action: 'campaign.send' }),
        ]),
      ),
    );
    server.use(activity.handler);
    await renderAdmin('/admin/users');

    const grid = await findTable('Users');
    const karim = (await within(grid).findByText('karim')).closest('[role="row"]');
    expect(karim).toHaveTextContent('karim@agency.test');
    expect(karim).toHaveTextContent('Editor');
    expect(karim).toHaveTextContent('Active');
    expect(karim).toHaveTextContent('Never');
    expect(within(grid).getByText('admin-user (you)')).toBeInTheDocument();

    const recent = await screen.findByRole('list', { name: 'Activity log' });
    expect(within(recent).getByText('nadia added a client: Carthage Bakeries')).toBeInTheDocument();
    expect(within(recent).getByText(/karim sent a campaign/)).toBeInTheDocument();
    expect(activity.calls[0]?.url.searchParams.get('pageSize')).toBe('10');
  });

  it('searches and filters by role through the API', async () => {
    const { handler, calls } = recordAdminCalls('get', '/users', () =>
      HttpResponse.json(pageOf([buildUser()])),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/users', { mobile: true });
    await findCardList('Users');

    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('role')).toBe('manager'));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'kar');
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('search')).toBe('kar'));
  });

  it('shows loading, empty and error states', async () => {
    server.use(adminPending('get', '/users'), adminPending('get', '/activity-logs'));
    const loading = await renderAdmin('/admin/users', { mobile: true });
    expect(await screen.findByRole('progressbar', { name: 'Loading...' })).toBeInTheDocument();
    loading.unmount();

    server.use(adminList('/users', []), adminList('/activity-logs', []));
    const empty = await renderAdmin('/admin/users', { mobile: true });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    expect(await screen.findByText('No activity yet.')).toBeInTheDocument();
    empty.unmount();

    server.use(adminFailure('get', '/users', 500), adminFailure('get', '/activity-logs', 500));
    await renderAdmin('/admin/users', { mobile: true });
    expect(await screen.findByText('This list could not be loaded.')).toBeInTheDocument();
    expect(await screen.findByText('The activity could not be loaded.')).toBeInTheDocument();
  });

  it('adds a user with the modal: username and e-mail required, password on create, viewer by default', async () => {
    const { handler, calls } = recordAdminCalls('post', '/users', (body) =>
      HttpResponse.json(buildUser(body as object), { status: 201 }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/users', { mobile: true });

    await user.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    expect(within(dialog).getByLabelText(/^Email/)).toHaveAttribute('type', 'email');
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Viewer');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));
    expect(await within(dialog).findByText('Username is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Username/), 'salma');
    await user.type(within(dialog).getByLabelText(/^Email/), 'salma@agency.tn');
    await user.click(within(dialog).getByLabelText(/^Password/));
    await user.paste('a long enough password');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await screen.findByText('User created successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      username: 'salma',
      email: 'salma@agency.tn',
      role: 'viewer',
      password: 'a long enough password',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a taken username under its field, with the error toast', async () => {
    server.use(
      adminFailure('post', '/users', 409, {
        message: 'A user with this username or e-mail already exists',
        fields: { username: 'This username is taken' },
      }),
    );
    const { user } = await renderAdmin('/admin/users', { mobile: true });
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'karim');
    await user.type(within(dialog).getByLabelText(/^Email/), 'karim@agency.tn');
    await user.click(within(dialog).getByLabelText(/^Password/));
    await user.paste('a long enough password');
    await user.click(within(dialog).getByRole('button', { name: 'Create User' }));

    expect(await within(dialog).findByText('This username is taken')).toBeInTheDocument();
    expect(
      screen.getByText('A user with this username or e-mail already exists'),
    ).toBeInTheDocument();
  });

  it('edits a user without asking for a password, and says when the update fails', async () => {
    const karim = buildUser({ username: 'karim', email: 'karim@agency.test', role: 'editor' });
    server.use(adminList('/users', [karim]), adminFailure('put', `/users/${karim.id}`, 500));
    const { user } = await renderAdmin('/admin/users', { mobile: true });

    await user.click(await screen.findByRole('button', { name: 'Edit karim' }, SECTION_LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText(/^Username/)).toHaveValue('karim');
    expect(
      within(dialog).getByText('Leave blank to keep the current password.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    const toast = (await screen.findByText('Error')).parentElement as HTMLElement;
    expect(within(toast).getByText('Internal server error')).toBeInTheDocument();

    const { handler, calls } = recordAdminCalls('put', `/users/${karim.id}`, (body) =>
      HttpResponse.json({ ...karim, ...(body as object) }),
    );
    server.use(handler);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('User updated successfully')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      username: 'karim',
      email: 'karim@agency.test',
      role: 'editor',
    });
  });

  it('deletes a user only after confirming, and says when it fails', async () => {
    const karim = buildUser({ username: 'karim' });
    server.use(adminList('/users', [buildUser({ ...me }), karim]));
    const { handler, calls } = recordAdminCalls('delete', `/users/${karim.id}`, () =>
      HttpResponse.json(
        { error: { code: 'CONFLICT', message: 'The last admin cannot be deleted' } },
        { status: 409 },
      ),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/users', { mobile: true });

    expect(
      await screen.findByRole('button', { name: 'Delete admin-user' }, SECTION_LOAD),
    ).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Delete karim' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete karim?' });
    expect(calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('The last admin cannot be deleted')).toBeInTheDocument();

    server.use(
      recordAdminCalls(
        'delete',
        `/users/${karim.id}`,
        () => new HttpResponse(null, { status: 204 }),
      ).handler,
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete User' }));
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('is closed to every role but admin', async () => {
    await renderAdmin('/admin/users', { role: 'manager', mobile: true });

    expect(
      screen.getByRole('heading', { level: 1, name: 'This section is not open to your role' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
  });
});
