import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PreferencesDto } from '@agency/contracts';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';
import { renderApp, UNSTYLED } from '../../testing/render';

const URL = '/api/newsletter/preferences';
const NEWS = 'a'.repeat(24);
const EVENTS = 'b'.repeat(24);

function preferences(overrides: Partial<PreferencesDto> = {}): PreferencesDto {
  return {
    email: 'rim@example.tn',
    locale: 'fr',
    subscription: 'confirmed',
    lists: [
      { id: NEWS, name: 'Actualités', description: 'Chaque mois', member: true },
      { id: EVENTS, name: 'Événements', description: null, member: false },
    ],
    ...overrides,
  };
}

/** The preference calls, recording what the page sent. */
function preferenceCalls(read: () => Response = () => HttpResponse.json(preferences())) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const record = async (request: Request) => {
    calls.push({
      method: request.method,
      path: new globalThis.URL(request.url).pathname,
      body: await request.clone().json(),
    });
  };
  server.use(
    http.post(URL, async ({ request }) => {
      await record(request);
      return read();
    }),
    http.put(URL, async ({ request }) => {
      await record(request);
      const body = (await request.clone().json()) as { listIds: string[]; locale: 'ar' };
      return HttpResponse.json(
        preferences({
          locale: body.locale,
          lists: preferences().lists.map((list) => ({
            ...list,
            member: body.listIds.includes(list.id),
          })),
        }),
      );
    }),
    http.post(`${URL}/unsubscribe`, async ({ request }) => {
      await record(request);
      return HttpResponse.json(preferences({ subscription: 'unsubscribed' }));
    }),
  );
  return calls;
}

describe('the preference page', () => {
  it.each([
    ['en', 'This was a test send', 'opens their own subscription settings'],
    ['fr', "C'était un envoi de test", 'ouvre leurs propres réglages'],
    ['ar', 'كان هذا إرسالًا تجريبيًا', 'يفتح إعدادات اشتراكهم'],
  ])(
    "says a test send's link (%s) was a test, and reads nobody's choices",
    async (lang, title, text) => {
      const calls = preferenceCalls();
      await renderApp(`/newsletter/preferences?test=1&lang=${lang}`, UNSTYLED);

      expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(text);
      expect(screen.queryByRole('group')).not.toBeInTheDocument();
      expect(calls).toEqual([]);
    },
  );

  it('shows the lists and language in the link language, then saves the changes', async () => {
    const calls = preferenceCalls();
    const { user } = await renderApp('/newsletter/preferences?token=t.o.k&lang=fr', UNSTYLED);

    expect(await screen.findByRole('heading', { name: 'Gérer votre abonnement' })).toBeVisible();
    expect(calls[0]).toEqual({ method: 'POST', path: URL, body: { token: 't.o.k' } });
    const lists = screen.getByRole('group', { name: 'Les listes que vous recevez' });
    expect(within(lists).getByRole('checkbox', { name: 'Actualités – Chaque mois' })).toBeChecked();
    expect(within(lists).getByRole('checkbox', { name: 'Événements' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Français' })).toBeChecked();

    await user.click(within(lists).getByRole('checkbox', { name: 'Actualités – Chaque mois' }));
    await user.click(within(lists).getByRole('checkbox', { name: 'Événements' }));
    await user.click(screen.getByRole('radio', { name: 'العربية' }));
    await user.click(screen.getByRole('button', { name: 'Enregistrer mes choix' }));

    expect(await screen.findByText('Vos choix sont enregistrés.')).toBeVisible();
    expect(calls[1]).toEqual({
      method: 'PUT',
      path: URL,
      body: { token: 't.o.k', locale: 'ar', listIds: [EVENTS] },
    });
    expect(screen.getByRole('checkbox', { name: 'Événements' })).toBeChecked();
  });

  it('reads right to left in Arabic and unsubscribes from everything', async () => {
    const calls = preferenceCalls(() => HttpResponse.json(preferences({ locale: 'ar' })));
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=ar', UNSTYLED);
    await screen.findByRole('heading', { name: 'إدارة اشتراكك' });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');

    await user.click(screen.getByRole('button', { name: 'إلغاء الاشتراك من كل شيء' }));
    expect(await screen.findByText(/تم إلغاء اشتراكك من كل شيء/)).toBeVisible();
    expect(calls[1]).toEqual({
      method: 'POST',
      path: `${URL}/unsubscribe`,
      body: { token: 'tok' },
    });
    expect(screen.getByRole('button', { name: 'إلغاء الاشتراك من كل شيء' })).toBeDisabled();
  });

  it.each([
    [410, 'LINK_EXPIRED', 'This link has expired'],
    [404, 'NOT_FOUND', 'This link is not valid'],
    [500, 'INTERNAL', 'We could not open your preferences'],
  ])('explains a refused link (%s) instead of the form', async (status, code, heading) => {
    await i18n.changeLanguage('en');
    preferenceCalls(() => HttpResponse.json({ error: { code, message: 'no' } }, { status }));
    await renderApp('/newsletter/preferences?token=bad&lang=en', UNSTYLED);
    expect(await screen.findByRole('heading', { name: heading })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save my choices' })).not.toBeInTheDocument();
  });
});
