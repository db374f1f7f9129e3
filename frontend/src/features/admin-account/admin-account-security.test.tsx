import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderAdmin, renderAdminSignedOut, SECTION_LOAD } from '../../testing/admin-render';
import { ADMIN, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
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

const TWO_FACTOR_OFF = { enabled: false, required: false, enabledAt: null, recoveryCodesLeft: 0 };
const TWO_FACTOR_ON = {
  enabled: true,
  required: false,
  enabledAt: '2030-01-01T08:00:00.000Z',
  recoveryCodesLeft: 10,
};

/** A 400 naming the refused field, as the API answers a wrong password or code. */
function refused(field: 'password' | 'code', reason: string) {
  return HttpResponse.json(
    {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { [field]: reason },
      },
    },
    { status: 400 },
  );
}

function twoFactorStatus(status: object) {
  return http.get(`${ADMIN}/me/two-factor`, () => HttpResponse.json(status));
}

const RIGHT_PASSWORD = 'the right password';

describe('Settings: sessions', () => {
  const CURRENT = {
    id: 's1',
    device: 'Chrome 140 on Linux',
    ip: '203.0.113.1',
    signedInAt: '2030-01-01T08:00:00.000Z',
    lastSeenAt: '2030-01-01T09:00:00.000Z',
    expiresAt: '2030-01-01T16:00:00.000Z',
    current: true,
  };
  const PHONE = {
    id: 's2',
    device: 'Safari 17 on iOS',
    ip: '198.51.100.2',
    signedInAt: '2030-01-01T07:00:00.000Z',
    lastSeenAt: '2030-01-01T07:30:00.000Z',
    expiresAt: '2030-01-01T15:00:00.000Z',
    current: false,
  };

  function sessionsServer(twoFactor: object) {
    let sessions = [CURRENT, PHONE];
    const recorded = recordAdminCalls('post', '/me/sessions/end-others', (body) => {
      const proof = body as { password?: string; code?: string };
      if (proof.code !== undefined) {
        return proof.code === '123456' ? endOthers() : refused('code', 'This code is not valid');
      }
      return proof.password === RIGHT_PASSWORD
        ? endOthers()
        : refused('password', 'The password is not correct');
    });
    function endOthers() {
      sessions = sessions.filter((session) => session.current);
      return new HttpResponse(null, { status: 204 });
    }
    server.use(
      recorded.handler,
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: sessions })),
      twoFactorStatus(twoFactor),
    );
    return recorded.calls;
  }

  it('signs out everywhere else only once the password is given, showing the reason under the field', async () => {
    const calls = sessionsServer(TWO_FACTOR_OFF);
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    const list = await screen.findByRole('list', { name: 'Where you are signed in' });
    expect(await within(list).findByText('Safari 17 on iOS')).toBeInTheDocument();
    expect(within(list).getByText('This browser')).toBeInTheDocument();

    const trigger = screen.getByRole('button', { name: 'Sign out everywhere else' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    const password = within(dialog).getByLabelText(/^Your password/);
    expect(password).toHaveFocus();
    // Two-factor sign-in is off: the password is the only proof.
    expect(within(dialog).queryByRole('button', { name: /authenticator app/ })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await within(dialog).findByText('Password is required')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.type(password, 'a guess');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();
    expect(password).toHaveAccessibleDescription('The password is not correct');
    expect(within(list).getByText('Safari 17 on iOS')).toBeInTheDocument();

    await user.clear(password);
    await user.type(password, RIGHT_PASSWORD);
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(within(list).queryByText('Safari 17 on iOS')).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.map((call) => call.body)).toEqual([
      { password: 'a guess' },
      { password: RIGHT_PASSWORD },
    ]);
  });

  it('takes an authenticator code instead while two-factor sign-in is on, and Escape gives focus back', async () => {
    const calls = sessionsServer(TWO_FACTOR_ON);
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    const list = await screen.findByRole('list', { name: 'Where you are signed in' });
    await within(list).findByText('Safari 17 on iOS');
    const trigger = screen.getByRole('button', { name: 'Sign out everywhere else' });

    await user.click(trigger);
    const first = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.type(within(first).getByLabelText(/^Your password/), 'half typed');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(trigger).toHaveFocus();
    expect(calls).toHaveLength(0);

    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    // Nothing typed before outlives the dialog.
    expect(within(dialog).getByLabelText(/^Your password/)).toHaveValue('');
    await user.click(
      within(dialog).getByRole('button', {
        name: 'Use a code from your authenticator app instead',
      }),
    );
    const code = within(dialog).getByLabelText(/^Authentication code/);
    expect(code).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    expect(
      await within(dialog).findByText('Enter the code from your authenticator app'),
    ).toBeInTheDocument();
    await user.type(code, '000000{Enter}');
    expect(await within(dialog).findByText('This code is not valid')).toBeInTheDocument();
    await user.clear(code);
    await user.type(code, '123456{Enter}');
    await waitFor(() =>
      expect(within(list).queryByText('Safari 17 on iOS')).not.toBeInTheDocument(),
    );
    expect(calls.map((call) => call.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });
});

describe('Settings: the password dialog in Arabic', () => {
  afterEach(async () => {
    await act(() => i18n.changeLanguage('en'));
  });

  it('asks for the password in Arabic, right to left, and says when it is missing', async () => {
    server.use(
      twoFactorStatus(TWO_FACTOR_ON),
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: [] })),
    );
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    await screen.findByRole('list', { name: 'Where you are signed in' });
    await act(() => i18n.changeLanguage('ar'));
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');

    await user.click(await screen.findByRole('button', { name: 'إيقاف' }, SECTION_LOAD));
    const dialog = await screen.findByRole('dialog', { name: 'إيقاف تسجيل الدخول بخطوتين؟' });
    expect(within(dialog).getByLabelText(/^كلمة المرور الخاصة بك/)).toHaveFocus();
    expect(
      within(dialog).getByRole('button', { name: 'استخدم رمزًا من تطبيق المصادقة بدلًا من ذلك' }),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'إيقاف' }));
    expect(await within(dialog).findByText('كلمة المرور مطلوبة')).toBeInTheDocument();
  });
});

describe('Settings: two-factor sign-in asks who you are first', () => {
  const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('turns it on only after the password, and sends the password again with the first code', async () => {
    const setupCalls = recordAdminCalls('post', '/me/two-factor/setup', (body) =>
      (body as { password?: string }).password === RIGHT_PASSWORD
        ? HttpResponse.json({
            secret: SECRET,
            otpauthUri: `otpauth://totp/Agency:v?secret=${SECRET}`,
          })
        : refused('password', 'The password is not correct'),
    );
    const codes = Array.from({ length: 10 }, (_, index) => `AAA${index}-BBBB-CCCC`);
    const confirmCalls = recordAdminCalls('post', '/me/two-factor/confirm', () =>
      HttpResponse.json({ recoveryCodes: codes }),
    );
    server.use(
      setupCalls.handler,
      confirmCalls.handler,
      twoFactorStatus(TWO_FACTOR_OFF),
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: [] })),
    );
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    await user.click(await screen.findByRole('button', { name: 'Turn on two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    expect(within(dialog).queryByRole('button', { name: /authenticator app/ })).toBeNull();
    const password = within(dialog).getByLabelText(/^Your password/);
    await user.type(password, 'a guess{Enter}');
    expect(await within(dialog).findByText('The password is not correct')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /QR code/ })).not.toBeInTheDocument();

    await user.clear(password);
    await user.type(password, `${RIGHT_PASSWORD}{Enter}`);
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Authentication code/), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    expect(await screen.findByRole('list', { name: 'Your recovery codes' })).toBeInTheDocument();
    expect(setupCalls.calls.map((call) => call.body)).toEqual([
      { password: 'a guess' },
      { password: RIGHT_PASSWORD },
    ]);
    expect(confirmCalls.calls.map((call) => call.body)).toEqual([
      { code: '654321', password: RIGHT_PASSWORD },
    ]);
  });

  it('makes new recovery codes and turns it off with the password or a code, showing the server’s reason as written', async () => {
    const renewCalls = recordAdminCalls('post', '/me/two-factor/recovery-codes', (body) =>
      (body as { password?: string }).password === RIGHT_PASSWORD
        ? HttpResponse.json({ recoveryCodes: ['NEW1-BBBB-CCCC'] })
        : refused('password', "Le mot de passe n'est pas correct"),
    );
    const disableCalls = recordAdminCalls(
      'post',
      '/me/two-factor/disable',
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(
      renewCalls.handler,
      disableCalls.handler,
      twoFactorStatus(TWO_FACTOR_ON),
      http.get(`${ADMIN}/me/sessions`, () => HttpResponse.json({ items: [] })),
    );
    const { user } = await renderAdmin('/admin/settings', { role: 'viewer' });
    await user.click(await screen.findByRole('button', { name: 'Make new recovery codes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Make new recovery codes?' });
    await user.type(within(dialog).getByLabelText(/^Your password/), 'faux{Enter}');
    expect(
      await within(dialog).findByText("Le mot de passe n'est pas correct"),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Your password/));
    await user.type(within(dialog).getByLabelText(/^Your password/), `${RIGHT_PASSWORD}{Enter}`);
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(within(list).getByText('NEW1-BBBB-CCCC')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have saved them' }));

    await user.click(await screen.findByRole('button', { name: 'Turn off' }));
    dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await user.click(
      within(dialog).getByRole('button', {
        name: 'Use a code from your authenticator app instead',
      }),
    );
    await user.type(within(dialog).getByLabelText(/^Authentication code/), '123456{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(renewCalls.calls.map((call) => call.body)).toEqual([
      { password: 'faux' },
      { password: RIGHT_PASSWORD },
    ]);
    expect(disableCalls.calls.map((call) => call.body)).toEqual([{ code: '123456' }]);
  });
});
