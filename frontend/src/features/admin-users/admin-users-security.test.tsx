import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildActivity, buildUser, pageOf, sessionUser } from '../../testing/admin-factory';
import { findTable, renderAdmin } from '../../testing/admin-render';
import { adminList, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

describe('User Management: account security', () => {
  async function openUsers() {
    const karim = buildUser({
      username: 'karim',
      email: 'karim@agency.test',
      twoFactorEnabled: true,
    });
    server.use(adminList('/users', [karim]));
    const rendered = await renderAdmin('/admin/users');
    const grid = await findTable('Users');
    const row = (await within(grid).findByText('karim')).closest('[role="row"]') as HTMLElement;
    return { ...rendered, karim, row };
  }

  it("resets a user's second factor only after asking", async () => {
    const reset = recordAdminCalls('delete', '/users/:id/two-factor', () =>
      HttpResponse.json(null, { status: 204 }),
    );
    server.use(reset.handler);
    const { user, karim, row } = await openUsers();
    expect(row).toHaveTextContent('On');

    await user.click(
      within(row).getByRole('button', { name: 'Reset two-factor sign-in of karim' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Reset two-factor sign-in of karim?',
    });
    expect(reset.calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-factor sign-in of karim was reset')).toBeInTheDocument();
    expect(reset.calls.map((call) => call.url.pathname)).toEqual([
      `/api/admin/users/${karim.id}/two-factor`,
    ]);
  });

  it('offers no reset of your own second factor: that is done in Settings, with the password', async () => {
    const me = buildUser({
      ...sessionUser('admin'),
      twoFactorEnabled: true,
    });
    server.use(adminList('/users', [me]));
    const { user } = await renderAdmin('/admin/users');
    const grid = await findTable('Users');
    const row = (await within(grid).findByText(/admin-user/)).closest(
      '[role="row"]',
    ) as HTMLElement;
    const reset = within(row).getByRole('button', {
      name: 'Reset two-factor sign-in of admin-user',
    });
    expect(reset).toBeDisabled();
    // The reason shows on hovering the button's wrapper (a disabled button fires no events).
    await user.hover(reset.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Change your own two-factor sign-in in Settings',
    );
  });

  it('signs a user out everywhere only after asking, and not on cancel', async () => {
    const signOut = recordAdminCalls('delete', '/users/:id/sessions', () =>
      HttpResponse.json(null, { status: 204 }),
    );
    server.use(signOut.handler);
    const { user, karim, row } = await openUsers();

    const action = () => within(row).getByRole('button', { name: 'Sign karim out everywhere' });
    await user.click(action());
    let dialog = await screen.findByRole('dialog', { name: 'Sign karim out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(signOut.calls).toHaveLength(0);
    await user.click(action());
    dialog = await screen.findByRole('dialog', { name: 'Sign karim out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('karim was signed out everywhere')).toBeInTheDocument();
    expect(signOut.calls.map((call) => call.url.pathname)).toEqual([
      `/api/admin/users/${karim.id}/sessions`,
    ]);
  });

  it('shows what each change did: old and new values, a password only as changed', async () => {
    server.use(
      adminList('/users', [buildUser()]),
      recordAdminCalls('get', '/activity-logs', () =>
        HttpResponse.json(
          pageOf([
            buildActivity({
              action: 'user.update',
              target: { type: 'user', id: 'u1', label: 'karim' },
              changes: [
                { field: 'role', before: 'viewer', after: 'editor' },
                { field: 'password', redacted: true },
              ],
            }),
          ]),
        ),
      ).handler,
    );
    await renderAdmin('/admin/users');

    const activity = await screen.findByRole('list', { name: 'Activity log' });
    const entry = await within(activity).findByText(/Role/);
    const item = entry.closest('li') as HTMLElement;
    expect(within(item).getByText('viewer').tagName).toBe('DEL');
    expect(within(item).getByText('editor').tagName).toBe('INS');
    expect(within(activity).getByText('Password changed (not recorded)')).toBeInTheDocument();
  });
});
