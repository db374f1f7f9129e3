import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderAdmin, renderAdminSignedOut, SECTION_LOAD } from '../../testing/admin-render';
import { ADMIN, adminFailure, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const usernameField = () => screen.getByLabelText(/Username or email/);
const passwordField = () => screen.getByLabelText(/^Password/);

async function openLogin(path = '/admin/login') {
  const result = await renderAdminSignedOut(path);
  await screen.findByRole('heading', { name: 'Admin Sign In' }, SECTION_LOAD);
  return result;
}

describe('Admin sign-in', () => {
  it('signs in, keeps the session under admin_token and admin_user, and welcomes the user', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { handler, calls } = recordAdminCalls('post', '/login', async () => {
      await gate;
      return HttpResponse.json({
        success: true,
        token: 'token-of-admin',
        expiresAt: '2030-01-01T00:00:00.000Z',
        user: { id: 'a1', username: 'nadia', email: 'nadia@agency.tn', role: 'admin' },
      });
    });
    server.use(
      handler,
      http.get(`${ADMIN}/me`, () =>
        HttpResponse.json({
          user: { id: 'a1', username: 'nadia', email: 'nadia@agency.tn', role: 'admin' },
        }),
      ),
    );
    const { user, location } = await openLogin();

    await user.type(usernameField(), 'nadia');
    await user.click(passwordField());
    await user.paste('correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('Logged in as nadia')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
    expect(calls[0]?.body).toEqual({ username: 'nadia', password: 'correct horse battery' });
    expect(window.localStorage.getItem('admin_token')).toBe('token-of-admin');
    expect(JSON.parse(window.localStorage.getItem('admin_user') ?? '{}')).toMatchObject({
      username: 'nadia',
      email: 'nadia@agency.tn',
      role: 'admin',
    });
  });

  it('returns to the admin page it was sent from, never to another site', async () => {
    const { user, location } = await openLogin('/admin/login?next=%2Fadmin%2Fsettings%3Ftab%3Dx');
    await user.type(usernameField(), 'nadia');
    await user.type(passwordField(), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(`${location().pathname}${location().search}`).toBe('/admin/settings?tab=x'),
    );
  });

  it.each([
    [
      'a wrong password',
      adminFailure('post', '/login', 401, { message: 'Invalid username or password' }),
      'Invalid username or password',
    ],
    [
      'a failure the server explains',
      adminFailure('post', '/login', 503, { message: 'Please try again shortly' }),
      'Please try again shortly',
    ],
    [
      'no answer at all',
      http.post(`${ADMIN}/login`, () => HttpResponse.error()),
      'An error occurred',
    ],
  ])('says "Login failed" after %s, and stays on the page', async (_case, handler, description) => {
    server.use(handler);
    const { user, location } = await openLogin();
    await user.type(usernameField(), 'nadia');
    await user.type(passwordField(), 'nope');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const toast = (await screen.findByText('Login failed')).parentElement as HTMLElement;
    expect(within(toast).getByText(description)).toBeInTheDocument();
    expect(location().pathname).toBe('/admin/login');
    expect(window.localStorage.getItem('admin_token')).toBeNull();
  });

  it('asks for both fields, with the spec texts, before calling the API', async () => {
    const { handler, calls } = recordAdminCalls('post', '/login', () => HttpResponse.json({}));
    server.use(handler);
    const { user } = await openLogin();

    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows and hides the password', async () => {
    const { user } = await openLogin();
    expect(passwordField()).toHaveAttribute('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(passwordField()).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordField()).toHaveAttribute('type', 'password');
  });

  it('shows the demo hint only when the API runs in demo mode', async () => {
    const first = await openLogin();
    expect(screen.queryByText('Demo account')).not.toBeInTheDocument();
    first.unmount();

    server.use(
      http.get(`${ADMIN}/login-options`, () =>
        HttpResponse.json({ demo: { username: 'demo', password: 'demo-password-1' } }),
      ),
    );
    const { user } = await openLogin();
    expect(await screen.findByText('Demo account')).toBeInTheDocument();
    expect(screen.getByText('Username: demo')).toBeInTheDocument();
    expect(screen.getByText('Password: demo-password-1')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Fill in the demo account' }));
    expect(usernameField()).toHaveValue('demo');
    expect(passwordField()).toHaveValue('demo-password-1');
  });
});

describe('Settings', () => {
  const fill = async (user: Awaited<ReturnType<typeof renderAdmin>>['user'], values: string[]) => {
    const labels = [/^Current password/, /^New password/, /^Confirm the new password/];
    // Pasted: typing each character re-validates the whole form, slowly in jsdom.
    for (const [index, value] of values.entries()) {
      const label = labels[index];
      if (!label) continue;
      await user.click(screen.getByLabelText(label));
      await user.paste(value);
    }
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  };

  it('changes your own password and keeps you signed in with the new token', async () => {
    const { handler, calls } = recordAdminCalls('put', '/me/password', () =>
      HttpResponse.json({
        token: 'token-after-change',
        expiresAt: '2030-01-01T00:00:00.000Z',
        user: { id: 'e1', username: 'editor-user', email: 'editor@agency.test', role: 'editor' },
      }),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/settings', { role: 'editor' });
    expect(screen.getByText('editor@agency.test')).toBeInTheDocument();

    await fill(user, ['the old password', 'a brand new passphrase', 'a brand new passphrase']);

    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      currentPassword: 'the old password',
      newPassword: 'a brand new passphrase',
    });
    expect(window.localStorage.getItem('admin_token')).toBe('token-after-change');
  });

  it('asks for the session lists with the new token only, so the change does not sign you out', async () => {
    // As the API does: the change revokes the old token at once.
    let revoked: string | null = null;
    const refusedTokens: string[] = [];
    const unlessRevoked =
      (answer: () => Response) =>
      ({ request }: { request: Request }) => {
        const token = (request.headers.get('Authorization') ?? '').replace('Bearer ', '');
        if (token === revoked) {
          refusedTokens.push(token);
          return HttpResponse.json(
            { error: { code: 'UNAUTHENTICATED', message: 'Session expired' } },
            { status: 401 },
          );
        }
        return answer();
      };
    server.use(
      http.put(`${ADMIN}/me/password`, () => {
        revoked = 'token-of-editor';
        return HttpResponse.json({
          token: 'token-after-change',
          expiresAt: '2030-01-01T00:00:00.000Z',
          user: { id: 'e1', username: 'editor-user', email: 'editor@agency.test', role: 'editor' },
        });
      }),
      http.get(
        `${ADMIN}/me/two-factor`,
        unlessRevoked(() =>
          HttpResponse.json({
            enabled: false,
            required: false,
            enabledAt: null,
            recoveryCodesLeft: 0,
          }),
        ),
      ),
      http.get(
        `${ADMIN}/me/sessions`,
        unlessRevoked(() => HttpResponse.json({ items: [] })),
      ),
    );
    const { user, location } = await renderAdmin('/admin/settings', { role: 'editor' });
    await screen.findByRole('list', { name: 'Where you are signed in' });

    await fill(user, ['the old password', 'a brand new passphrase', 'a brand new passphrase']);

    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    // Give the refetches the change triggered time to come back.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(refusedTokens).toEqual([]);
    expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
    expect(location().pathname).toBe('/admin/settings');
    expect(window.localStorage.getItem('admin_token')).toBe('token-after-change');
  });

  it('asks again with the new token when a call sent before the change is refused', async () => {
    let revoked: string | null = null;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const twoFactorTokens: string[] = [];
    server.use(
      http.put(`${ADMIN}/me/password`, () => {
        revoked = 'token-of-editor';
        return HttpResponse.json({
          token: 'token-after-change',
          expiresAt: '2030-01-01T00:00:00.000Z',
          user: { id: 'e1', username: 'editor-user', email: 'editor@agency.test', role: 'editor' },
        });
      }),
      // The first answer is held until after the change: the API then judges a revoked token.
      http.get(`${ADMIN}/me/two-factor`, async ({ request }) => {
        const token = (request.headers.get('Authorization') ?? '').replace('Bearer ', '');
        twoFactorTokens.push(token);
        await gate;
        if (token === revoked) {
          return HttpResponse.json(
            { error: { code: 'UNAUTHENTICATED', message: 'Session expired' } },
            { status: 401 },
          );
        }
        return HttpResponse.json({
          enabled: false,
          required: false,
          enabledAt: null,
          recoveryCodesLeft: 0,
        });
      }),
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: [] })),
    );
    const { user, location } = await renderAdmin('/admin/settings', { role: 'editor' });
    await waitFor(() => expect(twoFactorTokens).toEqual(['token-of-editor']));

    await fill(user, ['the old password', 'a brand new passphrase', 'a brand new passphrase']);
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    release();

    await waitFor(() => expect(twoFactorTokens).toContain('token-after-change'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Session expired')).not.toBeInTheDocument();
    expect(location().pathname).toBe('/admin/settings');
    expect(window.localStorage.getItem('admin_token')).toBe('token-after-change');
  });

  it('shows the reason under the field when the current password is wrong', async () => {
    server.use(
      adminFailure('put', '/me/password', 400, {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { currentPassword: 'The current password is not correct' },
      }),
    );
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });

    await fill(user, ['a wrong password', 'a brand new passphrase', 'a brand new passphrase']);

    expect(await screen.findByText('Password not changed')).toBeInTheDocument();
    expect(screen.getAllByText('The current password is not correct').length).toBeGreaterThan(0);
    expect(window.localStorage.getItem('admin_token')).toBe('token-of-viewer');
  });

  it('checks the new password and its confirmation before asking the API', async () => {
    const { handler, calls } = recordAdminCalls('put', '/me/password', () => HttpResponse.json({}));
    server.use(handler);
    const { user } = await renderAdmin('/admin/settings');

    await fill(user, ['the old password', 'short', 'different']);

    expect(await screen.findByText('Must be at least 12 characters long')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^New password/));
    await user.paste('a brand new passphrase');
    expect(await screen.findByText('The two new passwords do not match')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
