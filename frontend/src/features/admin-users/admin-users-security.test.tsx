import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { buildActivity, buildUser, pageOf } from '../../testing/admin-factory';
import { findTable, renderAdmin } from '../../testing/admin-render';
import { adminList, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

describe('User Management: account security', () => {
  it("resets a user's second factor and signs them out everywhere, each after asking", async () => {
    const karim = buildUser({
      username: 'karim',
      email: 'karim@agency.test',
      twoFactorEnabled: true,
    });
    server.use(adminList('/users', [karim]));
    const reset = recordAdminCalls(
      'delete',
      `/users/${karim.id}/two-factor`,
      () => new HttpResponse(null, { status: 204 }),
    );
    const signOut = recordAdminCalls(
      'delete',
      `/users/${karim.id}/sessions`,
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(reset.handler, signOut.handler);
    const { user } = await renderAdmin('/admin/users');

    const grid = await findTable('Users');
    const row = (await within(grid).findByText('karim')).closest('[role="row"]') as HTMLElement;
    expect(row).toHaveTextContent('On');

    await user.click(
      within(row).getByRole('button', { name: 'Reset two-factor sign-in of karim' }),
    );
    let dialog = await screen.findByRole('dialog', { name: 'Reset two-factor sign-in of karim?' });
    expect(reset.calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('Two-factor sign-in of karim was reset')).toBeInTheDocument();
    expect(reset.calls).toHaveLength(1);

    await user.click(within(row).getByRole('button', { name: 'Sign karim out everywhere' }));
    dialog = await screen.findByRole('dialog', { name: 'Sign karim out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(signOut.calls).toHaveLength(0);
    await user.click(within(row).getByRole('button', { name: 'Sign karim out everywhere' }));
    dialog = await screen.findByRole('dialog', { name: 'Sign karim out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('karim was signed out everywhere')).toBeInTheDocument();
    expect(signOut.calls).toHaveLength(1);
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

    const activity = await screen.findByRole('list', { name: 'Recent Activity' });
    const entry = await within(activity).findByText(/role/);
    const item = entry.closest('li') as HTMLElement;
    expect(within(item).getByText('viewer').tagName).toBe('DEL');
    expect(within(item).getByText('editor').tagName).toBe('INS');
    expect(within(activity).getByText('password changed (not recorded)')).toBeInTheDocument();
  });
});
