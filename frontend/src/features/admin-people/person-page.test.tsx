import { formatInstant } from '@agency/contracts';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import { ADMIN, adminFailure, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { server } from '../../testing/msw-server';
import { buildPerson, buildPersonDetail } from '../../testing/people-factory';

const PERSON = buildPerson({
  email: 'Amira@Example.tn',
  locale: 'fr',
  consent: 'withdrawn',
  suppressed: true,
});

const FULL = buildPersonDetail({
  person: PERSON,
  enquiries: [
    {
      id: 'e'.repeat(24),
      createdAt: '2026-03-02T10:00:00.000Z',
      service: 'branding',
      status: 'new',
    },
  ],
  subscription: {
    status: 'unsubscribed',
    locale: 'fr',
    createdAt: '2026-01-10T10:00:00.000Z',
    confirmedAt: '2026-01-10T11:00:00.000Z',
    unsubscribedAt: '2026-04-01T08:00:00.000Z',
  },
  memberships: [
    {
      list: { id: 'a'.repeat(24), name: 'Expo guests' },
      tags: ['vip', 'spring'],
      basis: 'import',
      at: '2026-02-01T09:00:00.000Z',
    },
  ],
  suppression: { reason: 'complaint', at: '2026-04-02T09:00:00.000Z', detail: 'abuse report' },
  consentEvents: [
    { kind: 'subscription-confirmed', at: '2026-01-10T11:00:00.000Z', detail: null },
    { kind: 'unsubscribed', at: '2026-04-01T08:00:00.000Z', detail: 'one-click' },
  ],
  mails: [
    {
      campaign: { id: 'c'.repeat(24), name: 'Spring offer' },
      state: 'failed',
      at: '2026-03-15T09:00:00.000Z',
      reason: '550 mailbox unavailable',
    },
  ],
  events: [
    {
      kind: 'complaint',
      at: '2026-04-02T09:00:00.000Z',
      provider: 'ses',
      detail: 'abuse report',
      campaign: { id: 'c'.repeat(24), name: 'Spring offer' },
    },
  ],
});

/** A section of the page, by its heading. */
const section = (name: string) => screen.getByRole('region', { name });

describe("A person's page", () => {
  it('asks for the address it was opened with, encoded', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people/:email', () =>
      HttpResponse.json(FULL),
    );
    server.use(handler);
    await renderAdmin('/admin/people/amira%40example.tn');

    await screen.findByRole('heading', { level: 1, name: 'Amira@Example.tn' }, SECTION_LOAD);
    expect(calls[0]?.url.pathname).toBe('/api/admin/people/amira%40example.tn');
  });

  it('shows the header and every section with its records', async () => {
    server.use(http.get(`${ADMIN}/people/:email`, () => HttpResponse.json(FULL)));
    await renderAdmin('/admin/people/amira%40example.tn', { mobile: true });

    await screen.findByRole('heading', { level: 1, name: 'Amira@Example.tn' }, SECTION_LOAD);
    expect(screen.getByText('Amira Ben Salah')).toBeInTheDocument();
    const summary = section('Summary');
    for (const text of ['French', 'Withdrawn', 'Yes']) {
      expect(within(summary).getByText(text)).toBeInTheDocument();
    }

    const enquiry = within(section('Enquiries')).getByRole('link');
    expect(enquiry).toHaveAttribute('href', `/admin/contacts/${'e'.repeat(24)}`);
    expect(section('Enquiries')).toHaveTextContent('Branding & Identity');

    expect(section('Newsletter subscription')).toHaveTextContent('Unsubscribed');
    const membership = within(section('Lists')).getByRole('row', { name: /Expo guests/ });
    expect(membership).toHaveTextContent('vip, spring');
    expect(membership).toHaveTextContent('Imported');

    expect(section('Suppression')).toHaveTextContent('Complaint');
    expect(section('Suppression')).toHaveTextContent('abuse report');

    const events = within(section('Consent history')).getAllByRole('listitem');
    expect(events).toHaveLength(2);
    expect(events[0]).toHaveTextContent('Confirmed the subscription');
    expect(events[1]).toHaveTextContent('Unsubscribed (one-click)');
    expect(within(events[1] as HTMLElement).getByText(/2026/)).toHaveAttribute(
      'datetime',
      '2026-04-01T08:00:00.000Z',
    );

    const mails = section('Campaign mails');
    const report = within(mails).getByRole('link', { name: 'Spring offer' });
    expect(report).toHaveAttribute('href', `/admin/campaigns/${'c'.repeat(24)}/report`);
    expect(mails).toHaveTextContent('Failed');
    expect(mails).toHaveTextContent('550 mailbox unavailable');

    const bounces = section('Bounces and complaints');
    expect(bounces).toHaveTextContent('Complaint');
    expect(within(bounces).getByRole('link', { name: 'Spring offer' })).toBeInTheDocument();
  });

  it('says what each section lacks when the address has only a record', async () => {
    server.use(
      http.get(`${ADMIN}/people/:email`, () =>
        HttpResponse.json(
          buildPersonDetail({ person: buildPerson({ firstName: '', lastName: '' }) }),
        ),
      ),
    );
    await renderAdmin('/admin/people/amira%40example.tn', { mobile: true });

    await screen.findByRole('heading', { level: 1, name: 'amira@example.tn' }, SECTION_LOAD);
    expect(screen.getByText('No name')).toBeInTheDocument();
    for (const text of [
      'No enquiry from this address.',
      'This address never subscribed to the newsletter.',
      'This address is in no list.',
      'This address is not on the suppression list.',
      'No consent event recorded.',
      'No campaign mail was sent to this address.',
      'No bounce or complaint.',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
  });

  it('says nobody holds an unknown address, with a way back to the list', async () => {
    server.use(
      adminFailure('get', '/people/:email', 404, { code: 'NOT_FOUND', message: 'Not found' }),
    );
    const { user, location } = await renderAdmin('/admin/people/nobody%40example.tn');

    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Nobody with this address is held' },
        SECTION_LOAD,
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to people' }));
    expect(location().pathname).toBe('/admin/people');
  });

  it('offers to try again when the page cannot be loaded', async () => {
    server.use(adminFailure('get', '/people/:email', 500));
    await renderAdmin('/admin/people/amira%40example.tn', { mobile: true });

    expect(
      await screen.findByText('This person could not be loaded.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it.each([
    ['admin', true],
    ['manager', false],
  ] as const)(
    'offers the data download and erasure to an admin only (%s)',
    async (role, offered) => {
      server.use(http.get(`${ADMIN}/people/:email`, () => HttpResponse.json(FULL)));
      await renderAdmin('/admin/people/amira%40example.tn', { role });
      await screen.findByRole('heading', { level: 1, name: 'Amira@Example.tn' }, SECTION_LOAD);
      expect(screen.queryByRole('button', { name: 'Erase this person' }) !== null).toBe(offered);
      expect(screen.queryByRole('button', { name: 'Download data' }) !== null).toBe(offered);
    },
    SECTION_LOAD.timeout,
  );

  it("reads in Arabic, right to left, with dates in the admin's Arabic format", async () => {
    server.use(http.get(`${ADMIN}/people/:email`, () => HttpResponse.json(FULL)));
    await renderAdmin('/admin/people/amira%40example.tn', { mobile: true });
    await screen.findByRole('heading', { level: 1, name: 'Amira@Example.tn' }, SECTION_LOAD);
    try {
      await act(() => i18n.changeLanguage('ar'));
      expect(
        await screen.findByRole('heading', { level: 2, name: 'سجل الموافقة' }, SECTION_LOAD),
      ).toBeInTheDocument();
      expect(document.documentElement).toHaveAttribute('dir', 'rtl');
      const events = within(screen.getByRole('region', { name: 'سجل الموافقة' }));
      const confirmed = formatInstant('2026-01-10T11:00:00.000Z', 'ar', 'Africa/Tunis');
      expect(events.getByText(confirmed)).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'العودة إلى الأشخاص' })).toBeInTheDocument();
    } finally {
      await act(() => i18n.changeLanguage('en'));
    }
  });
});
