import type { SegmentDto } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { buildAudience, buildCampaign, pageOf } from '../../testing/admin-factory';
import { findCardList, renderAdmin } from '../../testing/admin-render';
import { ADMIN, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const FRENCH: SegmentDto = {
  id: '0123456789abcdef01234567',
  name: 'French speakers',
  description: null,
  rule: { match: 'all', conditions: [{ field: 'locale', op: 'is', value: 'fr' }] },
  createdAt: '2026-05-01T08:00:00.000Z',
  updatedAt: '2026-05-01T08:00:00.000Z',
};

/** The draft's text fields, pasted (typing re-validates the whole form, slowly in jsdom). */
async function writeDraft(user: UserEvent, dialog: HTMLElement) {
  for (const [label, value] of [
    [/^Campaign name/, 'For French speakers'],
    [/^Email subject/, 'Nos offres'],
  ] as const) {
    await user.click(within(dialog).getByLabelText(label));
    await user.paste(value);
  }
  await user.click(within(dialog).getByRole('button', { name: 'HTML' }));
  await user.click(within(dialog).getByLabelText('Content (HTML source)'));
  await user.paste('<p>Bonjour</p>');
}

it('targets the segments picked, with the count of their consenting people', async () => {
  const audience = recordAdminCalls('get', '/campaigns/audience', (_body, request) =>
    HttpResponse.json(
      buildAudience({ segments: new URL(request.url).searchParams.get('segmentIds') ? 7 : 0 }),
    ),
  );
  const saves = recordAdminCalls('post', '/campaigns', (body) =>
    HttpResponse.json(buildCampaign(body as object), { status: 201 }),
  );
  const samples = recordAdminCalls('get', '/campaigns/sample-recipients', () =>
    HttpResponse.json({ items: [] }),
  );
  server.use(
    audience.handler,
    saves.handler,
    samples.handler,
    http.get(`${ADMIN}/segments`, () => HttpResponse.json(pageOf([FRENCH]))),
  );
  const { user } = await renderAdmin('/admin/campaigns', { mobile: true });
  await findCardList('Campaigns');

  await user.click(screen.getByRole('button', { name: 'New Campaign' }));
  const dialog = await screen.findByRole('dialog', { name: 'New Campaign' });
  await writeDraft(user, dialog);
  await user.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
  await user.click(await screen.findByRole('option', { name: /^Segments \(people who agreed\)/ }));
  await user.click(within(dialog).getByRole('combobox', { name: /^Segments/ }));
  await user.click(await screen.findByRole('option', { name: 'French speakers' }));
  await user.keyboard('{Escape}');
  expect(audience.calls.some(({ url }) => url.searchParams.get('segmentIds') === FRENCH.id)).toBe(
    true,
  );
  // The preview is filled in for one of the segments' people.
  await waitFor(() =>
    expect(samples.calls.some(({ url }) => url.searchParams.get('segmentIds') === FRENCH.id)).toBe(
      true,
    ),
  );
  await user.click(within(dialog).getByRole('combobox', { name: 'Recipients' }));
  expect(
    await screen.findByRole('option', { name: 'Segments (people who agreed) · 7' }),
  ).toBeInTheDocument();
  await user.keyboard('{Escape}');
  await user.click(within(dialog).getByRole('button', { name: 'Create Campaign' }));

  expect(await screen.findByText('Campaign created successfully')).toBeInTheDocument();
  expect(saves.calls[0]?.body).toMatchObject({
    recipientType: 'segments',
    segmentIds: [FRENCH.id],
    listIds: [],
  });
});
