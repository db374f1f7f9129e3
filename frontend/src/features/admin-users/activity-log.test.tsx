import { ACTIVITY_ACTIONS } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildActivity, buildUser, keysetPageOf } from '../../testing/admin-factory';
import { renderAdmin } from '../../testing/admin-render';
import { adminList, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';
import { i18n } from '../../testing/i18n';
import ar from './locales/ar.json';
import en from './locales/en.json';
import fr from './locales/fr.json';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

/** The log's entries (not the changes listed inside each). */
async function logEntries(name = 'Activity log'): Promise<HTMLElement[]> {
  const list = await screen.findByRole('list', { name });
  return Array.from(list.children) as HTMLElement[];
}

describe('the activity log', () => {
  it('shows changes as a person reads them: field names, no markup or JSON, values cut to a line', async () => {
    server.use(
      adminList('/users', [buildUser()]),
      http.get('/api/admin/activity-logs', () =>
        HttpResponse.json(
          keysetPageOf([
            buildActivity({
              action: 'campaign.update',
              target: { type: 'campaign', label: 'Spring offer' },
              changes: [
                {
                  field: 'content',
                  before: '<p>Hello <strong>{{firstName}}</strong></p>',
                  after: `<p>${'A much longer text about the spring packs. '.repeat(5)}</p>`,
                },
                {
                  field: 'sendingWindow',
                  before: null,
                  after: '{"days":[1,2,3],"start":"08:00","end":"20:00"}',
                },
                { field: 'ratePerMinute', before: 1200, after: 600 },
                { field: 'twoFactorEnabled', before: false, after: true },
              ],
            }),
          ]),
        ),
      ),
    );
    await renderAdmin('/admin/users');

    const [entry] = await logEntries();
    const changes = within(entry as HTMLElement).getAllByRole('listitem');
    expect(changes.map((change) => change.textContent)).toEqual([
      // Cut at 80 characters, on a word.
      'Content: Hello {{firstName}} → A much longer text about the spring packs. A much longer text about the spring…',
      'Sending window: (empty) → 1, 2, 3, 08:00, 20:00',
      'Mails per minute: 1,200 → 600',
      'Two-factor sign-in: no → yes',
    ]);
    expect(entry?.textContent).not.toMatch(/<|"|\{"|sendingWindow/);
  });

  it('names the lawful basis chosen for a campaign in words', async () => {
    server.use(
      adminList('/users', [buildUser()]),
      http.get('/api/admin/activity-logs', () =>
        HttpResponse.json(
          keysetPageOf([
            buildActivity({
              action: 'campaign.update',
              target: { type: 'campaign', label: 'Spring offer' },
              changes: [{ field: 'enquiryLawfulBasis', before: null, after: 'contract' }],
            }),
          ]),
        ),
      ),
    );
    await renderAdmin('/admin/users');

    const [entry] = await logEntries();
    expect(within(entry as HTMLElement).getByRole('listitem')).toHaveTextContent(
      'Lawful basis for enquiry contacts without consent: (empty) → contract',
    );
  });

  it("names the fields in the reader's language", async () => {
    server.use(
      adminList('/users', [buildUser()]),
      http.get('/api/admin/activity-logs', () =>
        HttpResponse.json(
          keysetPageOf([
            buildActivity({
              action: 'client.update',
              changes: [{ field: 'monthlyBudget', before: 1500.5, after: 2000 }],
            }),
          ]),
        ),
      ),
    );
    await i18n.changeLanguage('fr');
    await renderAdmin('/admin/users');
    const [entry] = await logEntries("Journal d'activité");
    expect(within(entry as HTMLElement).getByRole('listitem')).toHaveTextContent(
      /^Budget mensuel : 1 500,5 → 2 000$|^Budget mensuel: 1\s500,5 → 2\s000$/,
    );
  });

  it('pages through the log by position, older then newer', async () => {
    const log = recordAdminCalls('get', '/activity-logs', (_body, request) => {
      const url = new URL(request.url);
      if (url.searchParams.get('after') === 'pos-10') {
        return HttpResponse.json(
          keysetPageOf([buildActivity({ target: { type: 'client', label: 'Older client' } })], {
            total: 11,
            next: null,
            previous: 'pos-11',
          }),
        );
      }
      return HttpResponse.json(
        keysetPageOf([buildActivity({ target: { type: 'client', label: 'Newest client' } })], {
          total: 11,
          next: 'pos-10',
          previous: null,
        }),
      );
    });
    server.use(adminList('/users', [buildUser()]), log.handler);
    const { user } = await renderAdmin('/admin/users');
    await screen.findByText(/Newest client/);
    expect(screen.getByText('11 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Newer' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText(/Older client/)).toBeInTheDocument();
    expect(log.calls.at(-1)?.url.searchParams.get('after')).toBe('pos-10');
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(log.calls.at(-1)?.url.searchParams.get('before')).toBe('pos-11'));
  });

  it("filters by person, action and days on the agency's clock, from the first page again", async () => {
    const log = recordAdminCalls('get', '/activity-logs', () =>
      HttpResponse.json(keysetPageOf([buildActivity()], { next: 'pos-1' })),
    );
    server.use(
      adminList('/users', [buildUser({ id: '65f000000000000000000001', username: 'karim' })]),
      log.handler,
    );
    const { user } = await renderAdmin('/admin/users');
    await logEntries();
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(log.calls.at(-1)?.url.searchParams.get('after')).toBe('pos-1'));

    await user.click(screen.getByRole('combobox', { name: 'Person' }));
    await user.click(await screen.findByRole('option', { name: 'karim' }));
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'paused a campaign' }));
    await user.type(screen.getByLabelText('From'), '2026-03-02');
    await user.type(screen.getByLabelText('To'), '2026-03-03');

    await waitFor(() => {
      const query = log.calls.at(-1)?.url.searchParams;
      expect(query?.get('actor')).toBe('65f000000000000000000001');
      expect(query?.get('action')).toBe('campaign.pause');
      // Midnight in Tunis (UTC+1) is 23:00 UTC the day before; the last day is included.
      expect(query?.get('from')).toBe('2026-03-01T23:00:00.000Z');
      expect(query?.get('to')).toBe('2026-03-03T23:00:00.000Z');
      expect(query?.has('after')).toBe(false);
    });
  });

  it('says why a range ending before it starts is not asked for', async () => {
    const log = recordAdminCalls('get', '/activity-logs', () =>
      HttpResponse.json(keysetPageOf([buildActivity()])),
    );
    server.use(adminList('/users', [buildUser()]), log.handler);
    const { user } = await renderAdmin('/admin/users');
    await logEntries();
    await user.type(screen.getByLabelText('From'), '2026-03-05');
    const asked = log.calls.length;
    await user.type(screen.getByLabelText('To'), '2026-03-01');

    expect(
      await screen.findByText('The end must come after the start (2026-03-05)'),
    ).toBeInTheDocument();
    expect(log.calls).toHaveLength(asked);
  });

  it('says why a day outside the years dates may name is not asked for', async () => {
    const log = recordAdminCalls('get', '/activity-logs', () =>
      HttpResponse.json(keysetPageOf([buildActivity()])),
    );
    server.use(adminList('/users', [buildUser()]), log.handler);
    const { user } = await renderAdmin('/admin/users');
    await logEntries();
    const asked = log.calls.length;
    await user.type(screen.getByLabelText('From'), '1999-12-31');

    expect(await screen.findByText('The year must be between 2000 and 2100')).toBeInTheDocument();
    expect(log.calls).toHaveLength(asked);
  });

  it("shows the API's reason when it refuses a filter", async () => {
    server.use(
      adminList('/users', [buildUser()]),
      http.get('/api/admin/activity-logs', () =>
        HttpResponse.json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Some fields are invalid',
              fields: { after: 'Not a position in this list in this order' },
            },
          },
          { status: 400 },
        ),
      ),
    );
    await renderAdmin('/admin/users');
    expect(
      await screen.findByText(
        'These filters could not be applied: Not a position in this list in this order',
      ),
    ).toBeInTheDocument();
  });

  it('has words for every action the log records, in every language', () => {
    for (const catalogue of [en, fr, ar]) {
      const labels = catalogue.activity.actions as Record<string, string>;
      expect(ACTIVITY_ACTIONS.filter((action) => !labels[action])).toEqual([]);
    }
  });
});
