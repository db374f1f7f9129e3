import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { PreferencesDto } from '@agency/contracts';
import { server } from '../../../testing/msw-server';
import { renderApp, UNSTYLED } from '../../../testing/render';

const PREFERENCES: PreferencesDto = {
  email: 'rim@example.tn',
  locale: 'en',
  subscription: 'confirmed',
  lists: [],
};

/** The preference page's read, and its privacy requests answered by `answer`, recorded. */
function privacyCalls(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/newsletter/preferences', () => HttpResponse.json(PREFERENCES)),
    http.post('/api/newsletter/preferences/privacy-link', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

const sent = () => HttpResponse.json({ status: 'sent', email: 'rim@example.tn' }, { status: 202 });
const refused = (status: number, code: string) =>
  HttpResponse.json({ error: { code, message: 'no' } }, { status });

describe('the preference page’s data requests', () => {
  it.each([
    ['Download my data', 'download', /to download your data/],
    ['Erase my data', 'erasure', /to confirm the erasure of your data/],
  ] as const)('"%s" mails a %s link and says where it went', async (button, purpose, says) => {
    const bodies = privacyCalls(sent);
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=en', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: button }));
    const notice = await screen.findByText(/We have sent a link to rim@example.tn/);
    expect(notice).toHaveTextContent(says);
    expect(bodies).toEqual([{ token: 'tok', purpose }]);
  });

  it('reads right to left in Arabic and says so in Arabic', async () => {
    privacyCalls(sent);
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=ar', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: 'محو بياناتي' }));
    expect(await screen.findByText(/أرسلنا رابطًا إلى rim@example.tn/)).toBeVisible();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });

  it('asks to wait when the requests are limited, and keeps the page', async () => {
    privacyCalls(() => refused(429, 'RATE_LIMITED'));
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=fr', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: 'Télécharger mes données' }));
    expect(await screen.findByText(/Vous avez déjà fait plusieurs demandes/)).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Gérer votre abonnement' })).toBeVisible();
  });

  it('says the link has expired when the manage link was refused meanwhile', async () => {
    privacyCalls(() => refused(410, 'LINK_EXPIRED'));
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=en', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: 'Erase my data' }));
    expect(await screen.findByRole('heading', { name: 'This link has expired' })).toBeVisible();
  });

  it('says the link could not be sent when the server failed', async () => {
    privacyCalls(() => refused(503, 'UNAVAILABLE'));
    const { user } = await renderApp('/newsletter/preferences?token=tok&lang=en', UNSTYLED);
    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(
      await screen.findByText('We could not send the link. Please try again in a moment.'),
    ).toBeVisible();
  });
});
