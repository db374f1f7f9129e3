import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { buildMailingList, keysetPageOf, pageOf } from '../../testing/admin-factory';
import { findCardList, findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminKeysetList,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';
import { buildPerson } from '../../testing/people-factory';

const CLIENTS = buildMailingList({ name: 'Clients' });
const NEWS = buildMailingList({ name: 'News' });
const AMIRA = buildPerson({
  email: 'amira@example.tn',
  listIds: [CLIENTS.id, NEWS.id],
  tags: ['vip'],
  consent: 'given',
});
const KARIM = buildPerson({
  email: 'Karim@Example.com',
  firstName: 'Karim',
  lastName: 'Jlassi',
  locale: 'ar',
  sources: ['contact'],
  consent: 'none',
  suppressed: true,
});

const table = () => findTable('People');

beforeEach(() => {
  server.use(
    http.get(`${ADMIN}/lists`, () => HttpResponse.json(pageOf([CLIENTS, NEWS]))),
    adminKeysetList('/people', [AMIRA, KARIM]),
  );
});

describe('People list', () => {
  it('shows each person with sources, lists by name, tags, language, consent and suppression', async () => {
    await renderAdmin('/admin/people');

    const grid = await table();
    const amira = (await within(grid).findByText('amira@example.tn')).closest('[role="row"]');
    const karim = within(grid).getByText('Karim@Example.com').closest('[role="row"]');
    await waitFor(() => expect(amira).toHaveTextContent('2 lists: Clients, News'), SECTION_LOAD);
    for (const text of ['Amira Ben Salah', 'Newsletter', 'List', 'vip', 'French', 'Given']) {
      expect(amira).toHaveTextContent(text);
    }
    for (const text of ['Karim Jlassi', 'Enquiry', 'Arabic', 'None', 'Yes']) {
      expect(karim).toHaveTextContent(text);
    }
    const link = within(grid).getByRole('link', { name: 'Open the page of Karim@Example.com' });
    expect(link).toHaveAttribute('href', '/admin/people/karim%40example.com');
  });

  it("opens a person's page from the table by keyboard", async () => {
    server.use(http.get(`${ADMIN}/people/:email`, () => HttpResponse.json({})));
    const { user, location } = await renderAdmin('/admin/people', { role: 'manager' });
    const grid = await table();
    const name = await within(grid).findByText('Karim Jlassi');

    await user.click(name);
    await user.keyboard('{ArrowLeft}');
    const link = within(grid).getByRole('link', { name: 'Open the page of Karim@Example.com' });
    await waitFor(() => expect(link).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location().pathname).toBe('/admin/people/karim%40example.com'));
  });

  it('asks for the search and every filter as query parameters, and keeps them in the address', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people', () =>
      HttpResponse.json(keysetPageOf([AMIRA])),
    );
    server.use(handler);
    const path =
      `/admin/people?listId=${CLIENTS.id}&tag=vip&locale=fr&source=list&consent=given` +
      '&suppressed=no&since=2026-01-01&until=2026-05-31';
    const { user, location } = await renderAdmin(path, { mobile: true });
    await findCardList('People');
    const first = calls[0]?.url.searchParams;
    expect(Object.fromEntries(first ?? [])).toMatchObject({
      listId: CLIENTS.id,
      tag: 'vip',
      locale: 'fr',
      source: 'list',
      consent: 'given',
      suppressed: 'no',
      since: '2026-01-01',
      until: '2026-05-31',
      sort: '-firstSeenAt',
    });

    const search = screen.getByRole('searchbox', { name: 'Search by address, name or @domain' });
    expect(screen.getByText(/start with @ to find a domain/)).toBeInTheDocument();
    await user.type(search, '@example.com');
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('search')).toBe('@example.com'));
    expect(location().search).toContain('search=%40example.com');
  });

  it('filters by a list chosen by its name and by a tag typed out', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people', () =>
      HttpResponse.json(keysetPageOf([AMIRA])),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/people', { mobile: true });
    await findCardList('People');

    await user.click(screen.getByRole('combobox', { name: 'List' }));
    await user.click(await screen.findByRole('option', { name: 'News' }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('listId')).toBe(NEWS.id));

    await user.type(screen.getByRole('textbox', { name: 'Tag' }), 'vip{Enter}');
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('tag')).toBe('vip'));
    expect(calls.at(-1)?.url.searchParams.get('listId')).toBe(NEWS.id);
  });

  it('refuses a first-seen range that ends before it starts without asking the API', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people', () =>
      HttpResponse.json(keysetPageOf([AMIRA])),
    );
    server.use(handler);
    await renderAdmin('/admin/people?since=2026-05-01&until=2026-04-01', { mobile: true });

    expect((await screen.findAllByText(/2026-05-01/, {}, SECTION_LOAD)).length).toBeGreaterThan(0);
    expect(calls).toHaveLength(0);
  });

  it('moves to the next page by the position the API gave, and says "more than N"', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people', (_body, request) => {
      const after = new URL(request.url).searchParams.get('after');
      return HttpResponse.json(
        after
          ? keysetPageOf([KARIM], { total: 1000, totalKind: 'atLeast', previous: 'p2-start' })
          : keysetPageOf([AMIRA], { total: 1000, totalKind: 'atLeast', next: 'p2' }),
      );
    });
    server.use(handler);
    const { user, location } = await renderAdmin('/admin/people', { mobile: true });
    await findCardList('People');
    expect(screen.getByText(/more than 1,000/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('after')).toBe('p2'));
    expect(location().search).toContain('page=2');
    expect(await screen.findByText('Karim@Example.com')).toBeInTheDocument();
  });

  it('says nobody is held yet when the API has no one', async () => {
    server.use(adminKeysetList('/people', []));
    await renderAdmin('/admin/people');

    expect(await screen.findByText('Nobody is held yet', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    server.use(adminFailure('get', '/people', 500));
    const { user } = await renderAdmin('/admin/people', { mobile: true });

    expect(
      await screen.findByText('This list could not be loaded.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    server.use(adminKeysetList('/people', [KARIM]));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Karim@Example.com')).toBeInTheDocument();
  });

  it.each(['viewer', 'editor'] as const)(
    'is closed to a role that does not manage lists (%s)',
    async (role) => {
      const { calls, handler } = recordAdminCalls('get', '/people', () =>
        HttpResponse.json(keysetPageOf([AMIRA])),
      );
      server.use(handler);
      await renderAdmin('/admin/people', { role, mobile: true });

      expect(
        await screen.findByRole('heading', { name: 'This section is not open to your role' }),
      ).toBeInTheDocument();
      expect(screen.queryByText('Karim@Example.com')).not.toBeInTheDocument();
      expect(calls).toHaveLength(0);
    },
  );
});

describe('People bulk actions', () => {
  const bulkCalls = () => {
    const recorded = recordAdminCalls('post', '/people/bulk', () =>
      HttpResponse.json({ changed: 1, unchanged: 1 }),
    );
    server.use(recorded.handler);
    return recorded.calls;
  };

  it('adds the people chosen in the table to a list, says what changed and refreshes', async () => {
    const calls = bulkCalls();
    const reads = recordAdminCalls('get', '/people', () =>
      HttpResponse.json(keysetPageOf([AMIRA, KARIM])),
    );
    server.use(reads.handler);
    const { user } = await renderAdmin('/admin/people', { role: 'manager' });
    const grid = await table();
    await within(grid).findByText('amira@example.tn');

    const boxes = within(grid).getAllByRole('checkbox', { name: /select row/i });
    await user.click(boxes[0] as HTMLElement);
    await user.click(boxes[1] as HTMLElement);
    expect(screen.getByText('2 people chosen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to a list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add the chosen people to a list' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(dialog).findByText(/This field is required|Must be a valid id/),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await user.click(within(dialog).getByRole('combobox', { name: 'List' }));
    await user.click(await screen.findByRole('option', { name: 'News' }));
    const before = reads.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      action: 'add-to-list',
      emails: ['amira@example.tn', 'karim@example.com'],
      listId: NEWS.id,
    });
    expect(await screen.findByText('1 changed, 1 left as they were')).toBeInTheDocument();
    await waitFor(() => expect(reads.calls.length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('tags the people chosen on a phone with the list and the tag typed', async () => {
    const calls = bulkCalls();
    const { user } = await renderAdmin('/admin/people', { role: 'manager', mobile: true });
    await findCardList('People');

    await user.click(screen.getByRole('checkbox', { name: 'Choose Karim@Example.com' }));
    await user.click(screen.getByRole('button', { name: 'Tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Tag the chosen people' });
    await user.click(within(dialog).getByRole('combobox', { name: 'List' }));
    await user.click(await screen.findByRole('option', { name: 'Clients' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Tag' }), ' expo ');
    await user.click(within(dialog).getByRole('button', { name: 'Tag' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      action: 'tag',
      emails: ['karim@example.com'],
      listId: CLIENTS.id,
      tag: 'expo',
    });
  });

  it('asks once more before removing people from a list', async () => {
    const calls = bulkCalls();
    const { user } = await renderAdmin('/admin/people', { role: 'manager', mobile: true });
    await findCardList('People');

    await user.click(screen.getByRole('checkbox', { name: 'Choose amira@example.tn' }));
    await user.click(screen.getByRole('button', { name: 'Remove from a list' }));
    const form = await screen.findByRole('dialog', {
      name: 'Remove the chosen people from a list',
    });
    await user.click(within(form).getByRole('combobox', { name: 'List' }));
    await user.click(await screen.findByRole('option', { name: 'Clients' }));
    await user.click(within(form).getByRole('button', { name: 'Remove' }));

    const confirm = await screen.findByRole('dialog', {
      name: 'Remove the chosen people from Clients?',
    });
    expect(calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      action: 'remove-from-list',
      emails: ['amira@example.tn'],
      listId: CLIENTS.id,
    });
    // Back on the button that opened it once the dialog closes.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove from a list' })).toHaveFocus(),
    );
  });

  it('forgets the choice when a filter changes: it was made among other rows', async () => {
    const { handler, calls } = recordAdminCalls('get', '/people', () =>
      HttpResponse.json(keysetPageOf([AMIRA, KARIM])),
    );
    server.use(handler);
    const { user } = await renderAdmin('/admin/people', { role: 'manager', mobile: true });
    await findCardList('People');
    await user.click(screen.getByRole('checkbox', { name: 'Choose amira@example.tn' }));
    expect(screen.getByText('1 person chosen')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('First seen from'), {
      target: { value: '2026-04-01' },
    });
    await waitFor(() => expect(calls.at(-1)?.url.searchParams.get('since')).toBe('2026-04-01'));
    expect(screen.queryByText('1 person chosen')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Choose amira@example.tn' })).not.toBeChecked();
  });

  it('tells why the API refused an action', async () => {
    server.use(
      adminFailure('post', '/people/bulk', 400, {
        code: 'VALIDATION_FAILED',
        message: 'This list is being deleted',
      }),
    );
    const { user } = await renderAdmin('/admin/people', { role: 'manager', mobile: true });
    await findCardList('People');
    await user.click(screen.getByRole('checkbox', { name: 'Choose amira@example.tn' }));
    await user.click(screen.getByRole('button', { name: 'Untag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Untag the chosen people' });
    await user.click(within(dialog).getByRole('combobox', { name: 'List' }));
    await user.click(await screen.findByRole('option', { name: 'Clients' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Tag' }), 'vip');
    await user.click(within(dialog).getByRole('button', { name: 'Untag' }));

    expect(await screen.findByText('The action was not done')).toBeInTheDocument();
    expect(screen.getByText('This list is being deleted')).toBeInTheDocument();
  });
});

describe('People export', () => {
  const stubDownload = () => {
    Object.assign(URL, {
      createObjectURL: jest.fn(() => 'blob:people'),
      revokeObjectURL: jest.fn(),
    });
    const clicked: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    return { clicked, restore: () => click.mockRestore() };
  };

  it('downloads the CSV of the filtered people, not of the page', async () => {
    const { handler, calls } = recordAdminCalls(
      'get',
      '/people/export',
      () =>
        new HttpResponse('email\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="people-2026-05-04.csv"',
          },
        }),
    );
    server.use(handler);
    const download = stubDownload();
    try {
      const { user } = await renderAdmin(
        '/admin/people?consent=given&search=%40example.tn&after=p2&page=2',
        { role: 'manager', mobile: true },
      );
      await findCardList('People');
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));

      await waitFor(() => expect(download.clicked).toHaveLength(1));
      expect(download.clicked[0]?.download).toBe('people-2026-05-04.csv');
      const params = calls[0]?.url.searchParams;
      expect(params?.get('consent')).toBe('given');
      expect(params?.get('search')).toBe('@example.tn');
      expect(params?.has('after')).toBe(false);
      expect(params?.has('pageSize')).toBe(false);
    } finally {
      download.restore();
    }
  });

  it('shows the export running, then why it failed', async () => {
    let answer: (() => void) | undefined;
    server.use(
      http.get(`${ADMIN}/people/export`, async () => {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return HttpResponse.json(
          { error: { code: 'FORBIDDEN', message: 'Your role cannot export people' } },
          { status: 403 },
        );
      }),
    );
    const { user } = await renderAdmin('/admin/people', { role: 'manager', mobile: true });
    await findCardList('People');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const running = await screen.findByRole('button', { name: 'Exporting...' });
    expect(running).toBeDisabled();
    answer?.();
    expect(await screen.findByText('Export failed')).toBeInTheDocument();
    expect(screen.getByText('Your role cannot export people')).toBeInTheDocument();
    // The toast can show a render before the button is given back its label.
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeEnabled();
  });
});
