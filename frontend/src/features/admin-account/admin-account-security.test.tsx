import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderAdmin, renderAdminSignedOut, SECTION_LOAD } from '../../testing/admin-render';
import { ADMIN, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const SIGNED_IN = {
  success: true,
  token: 'token-of-admin',
  expiresAt: '2030-01-01T00:00:00.000Z',
  user: { id: 'a1', username: 'nadia', email: 'nadia@agency.tn', role: 'admin' },
};

async function passwordStep(answer: object) {
  server.use(http.post(`${ADMIN}/login`, () => HttpResponse.json(answer)));
  const rendered = await renderAdminSignedOut('/admin/login');
  await screen.findByRole('heading', { name: 'Admin Sign In' }, SECTION_LOAD);
  await rendered.user.type(screen.getByLabelText(/Username or email/), 'nadia');
  await rendered.user.type(screen.getByLabelText(/^Password/), 'a password');
  await rendered.user.click(screen.getByRole('button', { name: 'Sign In' }));
  return rendered;
}

describe('two-factor sign-in', () => {
  it('asks for the code after the password, says when it is wrong, and signs in with the next', async () => {
    const { handler, calls } = recordAdminCalls('post', '/login/second-factor', (body) =>
      (body as { code: string }).code === '123456'
        ? HttpResponse.json(SIGNED_IN)
        : HttpResponse.json(
            {
              success: false,
              error: { code: 'UNAUTHENTICATED', message: 'This code is not valid' },
            },
            { status: 401 },
          ),
    );
    server.use(handler);
    const { user, location } = await passwordStep({
      success: false,
      secondFactor: 'totp',
      challenge: 'the-challenge',
      challengeExpiresAt: '2030-01-01T00:00:00.000Z',
    });

    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
    expect(window.localStorage.getItem('admin_token')).toBeNull();
    await user.type(screen.getByLabelText(/^Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This code is not valid')).toBeInTheDocument();

    await user.clear(screen.getByLabelText(/^Authentication code/));
    await user.type(screen.getByLabelText(/^Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
    expect(calls.at(-1)?.body).toEqual({ challenge: 'the-challenge', code: '123456' });
    expect(window.localStorage.getItem('admin_token')).toBe('token-of-admin');
  });

  it('takes a user who must enrol to the QR code and secret, then shows the recovery codes once', async () => {
    const codes = Array.from({ length: 10 }, (_, index) => `AAA${index}-BBBB-CCCC`);
    server.use(
      http.post(`${ADMIN}/login/enrolment`, () =>
        HttpResponse.json({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauthUri: 'otpauth://totp/Agency:nadia?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        }),
      ),
      http.post(`${ADMIN}/login/enrolment/confirm`, () =>
        HttpResponse.json({ ...SIGNED_IN, recoveryCodes: codes }),
      ),
    );
    const { user, location } = await passwordStep({
      success: false,
      secondFactor: 'enrol',
      challenge: 'enrol-challenge',
      challengeExpiresAt: '2030-01-01T00:00:00.000Z',
    });

    expect(
      await screen.findByRole('heading', { name: 'Set up two-factor sign-in' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(screen.getByTestId('two-factor-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    await user.type(screen.getByLabelText(/^Authentication code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm and continue' }));

    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    // Signed in only once the codes were acknowledged.
    expect(window.localStorage.getItem('admin_token')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(location().pathname).toBe('/admin/dashboard'));
    expect(window.localStorage.getItem('admin_token')).toBe('token-of-admin');
  });
});

describe('forgot password', () => {
  it('sends the address and the page language, and answers the same whoever it belongs to', async () => {
    const { handler, calls } = recordAdminCalls('post', '/password-reset', () =>
      HttpResponse.json({ status: 'accepted' }, { status: 202 }),
    );
    server.use(handler);
    const { user } = await renderAdminSignedOut('/admin/forgot-password');
    await screen.findByRole('heading', { name: 'Forgot your password?' }, SECTION_LOAD);

    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Email/), 'someone@agency.tn');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account uses someone@agency.tn',
    );
    expect(calls[0]?.body).toEqual({ email: 'someone@agency.tn', locale: 'en' });
  });

  it('says when a reset link has expired', async () => {
    server.use(
      http.post(`${ADMIN}/password-reset/confirm`, () =>
        HttpResponse.json({ error: { code: 'LINK_EXPIRED', message: 'expired' } }, { status: 410 }),
      ),
    );
    const { user } = await renderAdminSignedOut('/admin/reset-password?token=old');
    await screen.findByRole('heading', { name: 'Choose a new password' }, SECTION_LOAD);
    await user.type(screen.getByLabelText(/^New password/), 'a brand new passphrase');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('expired or was already used');
  });
});

describe('Settings: sessions', () => {
  it('lists where you are signed in and ends the others after asking', async () => {
    let sessions = [
      {
        id: 's1',
        device: 'Chrome 140 on Linux',
        ip: '203.0.113.1',
        signedInAt: '2030-01-01T08:00:00.000Z',
        lastSeenAt: '2030-01-01T09:00:00.000Z',
        expiresAt: '2030-01-01T16:00:00.000Z',
        current: true,
      },
      {
        id: 's2',
        device: 'Safari 17 on iOS',
        ip: '198.51.100.2',
        signedInAt: '2030-01-01T07:00:00.000Z',
        lastSeenAt: '2030-01-01T07:30:00.000Z',
        expiresAt: '2030-01-01T15:00:00.000Z',
        current: false,
      },
    ];
    const { handler, calls } = recordAdminCalls('delete', '/me/sessions', () => {
      sessions = sessions.filter((session) => session.current);
      return new HttpResponse(null, { status: 204 });
    });
    server.use(
      handler,
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: sessions })),
      http.get(`${ADMIN}/me/two-factor`, () =>
        HttpResponse.json({
          enabled: false,
          required: false,
          enabledAt: null,
          recoveryCodesLeft: 0,
        }),
      ),
    );
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    const list = await screen.findByRole('list', { name: 'Where you are signed in' });
    expect(await within(list).findByText('Safari 17 on iOS')).toBeInTheDocument();
    expect(within(list).getByText('This browser')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(within(list).queryByText('Safari 17 on iOS')).not.toBeInTheDocument(),
    );
    expect(calls).toHaveLength(1);
  });
});
