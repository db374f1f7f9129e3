import { File as NodeFile } from 'node:buffer';
import type { ImportDto, MailingListDto } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import {
  buildImport,
  buildMailingList,
  buildSuppression,
  pageOf,
} from '../../testing/admin-factory';
import { findTable, renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import {
  ADMIN,
  adminFailure,
  adminList,
  recordAdminCalls,
} from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

/**
 * Node's File, not jsdom's: the test's fetch is Node's (jest-fixed-jsdom),
 * which sends its own Blobs as a browser sends a chosen file.
 */
const csvFile = (name = 'guests.csv', text = 'Email,First name\nada@example.com,Ada\n') =>
  new NodeFile([text], name, { type: 'text/csv' }) as unknown as File;

/** Uploads as they reach the API: the file's text and its headers. */
function recordUploads(respond: () => Response) {
  const calls: { text: string; headers: Headers }[] = [];
  const handler = http.post(`${ADMIN}/imports`, async ({ request }) => {
    calls.push({ text: await request.text(), headers: request.headers });
    return respond();
  });
  return { handler, calls };
}

describe('Audience: lists', () => {
  it('lists the mailing lists with their members, and adds one through its dialog', async () => {
    const create = recordAdminCalls('post', '/lists', (body) =>
      HttpResponse.json(buildMailingList(body as object), { status: 201 }),
    );
    server.use(create.handler);
    const { user } = await renderAdmin('/admin/audience', { role: 'manager' });

    const grid = await findTable('Mailing lists');
    const expo = (await within(grid).findByText('Expo guests')).closest('[role="row"]');
    expect(expo).toHaveTextContent('1,200');
    expect(expo).toHaveTextContent('People met at the spring expo');
    expect(screen.getByRole('tab', { name: 'Import CSV' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Suppression list' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add List' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add List' });
    await user.click(within(dialog).getByRole('button', { name: 'Add List' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(create.calls).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/^Name/), 'Gala 2026');
    await user.type(within(dialog).getByLabelText(/^Description/), 'Invitations');
    await user.click(within(dialog).getByRole('button', { name: 'Add List' }));
    expect(await screen.findByText('List created')).toBeInTheDocument();
    expect(create.calls[0]?.body).toEqual({
      name: 'Gala 2026',
      description: 'Invitations',
      public: false,
    });
  });

  it('makes a list public with a name in each language, asking for the missing ones', async () => {
    const create = recordAdminCalls('post', '/lists', (body) =>
      HttpResponse.json(buildMailingList(body as object), { status: 201 }),
    );
    server.use(create.handler);
    const { user } = await renderAdmin('/admin/audience', { role: 'manager' });
    await user.click(await screen.findByRole('button', { name: 'Add List' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add List' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Newsletter');
    expect(within(dialog).queryByLabelText(/^Public name \(French\)/)).not.toBeInTheDocument();

    const publicSwitch = within(dialog).getByRole('switch', { name: 'Public list' });
    expect(publicSwitch).toHaveAccessibleDescription(/sign up for the newsletter/);
    await user.click(publicSwitch);
    await user.type(within(dialog).getByLabelText(/^Public name \(English\)/), 'Agency news');
    await user.type(within(dialog).getByLabelText(/^Public name \(French\)/), 'Nouvelles');
    await user.click(within(dialog).getByRole('button', { name: 'Add List' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(create.calls).toHaveLength(0);

    const arabic = within(dialog).getByLabelText(/^Public name \(Arabic\)/);
    expect(arabic).toHaveAttribute('dir', 'rtl');
    await user.type(arabic, 'أخبار');
    await user.type(within(dialog).getByLabelText(/^Public description \(French\)/), 'Chaque mois');
    await user.click(within(dialog).getByRole('button', { name: 'Add List' }));
    expect(await screen.findByText('List created')).toBeInTheDocument();
    expect(create.calls[0]?.body).toEqual({
      name: 'Newsletter',
      public: true,
      nameEn: 'Agency news',
      nameFr: 'Nouvelles',
      nameAr: 'أخبار',
      descriptionFr: 'Chaque mois',
    });
  });

  it('closes the confirmation at once, shows the deletion progress, then drops the row', async () => {
    const list = buildMailingList({ name: 'Old fair', memberCount: 12_000 });
    const deleting = (removed: number) => ({
      ...list,
      state: 'deleting' as const,
      deletion: { total: 12_000, removed, startedAt: list.createdAt },
    });
    // What each read of the lists answers, in turn; the last answer stays.
    let answers: MailingListDto[][] = [[list]];
    server.use(
      http.get(`${ADMIN}/lists`, () =>
        HttpResponse.json(pageOf((answers.length > 1 ? answers.shift() : answers[0]) ?? [])),
      ),
    );
    // The API's answer waits until the test has seen the dialog close.
    let answer: (value: unknown) => void = () => undefined;
    const answered = new Promise((resolve) => {
      answer = resolve;
    });
    const remove = recordAdminCalls('delete', `/lists/${list.id}`, async () => {
      await answered;
      answers = [[deleting(3000)], [deleting(9000)], []];
      return HttpResponse.json(deleting(0), { status: 202 });
    });
    server.use(remove.handler);
    const { user } = await renderAdmin('/admin/audience', { role: 'manager', mobile: true });

    await user.click(await screen.findByRole('button', { name: 'Delete Old fair' }, SECTION_LOAD));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Old fair?' });
    expect(remove.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete List' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(remove.calls).toHaveLength(1);
    answer(null);
    expect(
      await screen.findByText('Deleting Old fair: its row shows the progress'),
    ).toBeInTheDocument();
    expect(remove.calls).toHaveLength(1);

    const progress = await screen.findByRole('progressbar', { name: 'Deletion of Old fair' });
    expect(progress).toHaveAttribute('aria-valuenow', '25');
    expect(progress).toHaveAttribute('aria-valuetext', 'Deleting… 3,000 of 12,000');
    expect(screen.getByText('Deleting… 3,000 of 12,000')).toBeInTheDocument();
    // No action on a list on its way out.
    expect(screen.queryByRole('button', { name: 'Delete Old fair' })).not.toBeInTheDocument();
    // The page reads the lists again on its own while one is being deleted.
    expect(
      await screen.findByText('Deleting… 9,000 of 12,000', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('No lists yet', {}, { timeout: 5000 })).toBeInTheDocument();
  }, 20_000);

  it('says why a deletion was refused, with the dialog closed and the list kept', async () => {
    const list = buildMailingList({ name: 'Busy fair' });
    server.use(
      adminList('/lists', [list]),
      adminFailure('delete', `/lists/${list.id}`, 409, {
        message: 'A file is being imported into this list',
      }),
    );
    const { user } = await renderAdmin('/admin/audience', { role: 'manager', mobile: true });

    await user.click(await screen.findByRole('button', { name: 'Delete Busy fair' }, SECTION_LOAD));
    const confirm = await screen.findByRole('dialog', { name: 'Delete Busy fair?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete List' }));
    expect(await screen.findByText('A file is being imported into this list')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Busy fair' })).toBeInTheDocument();
  });

  it('shows a viewer the lists only: no changes, no import, no suppression list', async () => {
    await renderAdmin('/admin/audience/suppression', { role: 'viewer' });

    const grid = await findTable('Mailing lists');
    expect(await within(grid).findByText('Expo guests')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add List' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete) / })).not.toBeInTheDocument();
  });
});

describe('Audience: CSV import', () => {
  it('uploads a file, maps its columns with a preview, and follows the import to done', async () => {
    const uploaded = buildImport({ id: 'a'.repeat(24) });
    const list = buildMailingList();
    const lists = recordAdminCalls('get', '/lists', () => HttpResponse.json(pageOf([list])));
    server.use(lists.handler);
    const upload = recordUploads(() => HttpResponse.json(uploaded, { status: 201 }));
    const start = recordAdminCalls('post', `/imports/${uploaded.id}/start`, () =>
      HttpResponse.json({ ...uploaded, status: 'queued' }, { status: 202 }),
    );
    const report = recordAdminCalls(
      'get',
      `/imports/${uploaded.id}/report`,
      () =>
        new HttpResponse('row,value,reason\r\n2,bad,invalid-email\r\n', {
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': 'attachment; filename="guests-report.csv"',
          },
        }),
    );
    // What the import reads as: waiting for its columns until started, then running, then done.
    const states = [
      uploaded,
      {
        ...uploaded,
        status: 'running',
        list: { id: list.id, name: list.name },
        counts: { read: 1, created: 1, updated: 0, unchanged: 0, skipped: 0, invalid: 0 },
      },
      {
        ...uploaded,
        status: 'done',
        list: { id: list.id, name: list.name },
        counts: { read: 3, created: 2, updated: 0, unchanged: 0, skipped: 0, invalid: 1 },
        reportLines: 1,
      },
    ];
    let reads = 0;
    server.use(
      upload.handler,
      start.handler,
      report.handler,
      http.get(`${ADMIN}/imports/${uploaded.id}`, () => {
        if (start.calls.length === 0) return HttpResponse.json(states[0]);
        reads += 1;
        return HttpResponse.json(states[Math.min(reads, states.length - 1)]);
      }),
      // The recent imports: the import as it last read.
      http.get(`${ADMIN}/imports`, () =>
        HttpResponse.json(
          pageOf(reads === 0 ? [] : [states[Math.min(reads, states.length - 1)] as ImportDto]),
        ),
      ),
    );
    URL.createObjectURL = jest.fn(() => 'blob:report');
    URL.revokeObjectURL = jest.fn();
    const { user, location } = await renderAdmin('/admin/audience/imports', { role: 'manager' });

    await user.upload(
      await screen.findByLabelText('Choose a CSV file', {}, SECTION_LOAD),
      csvFile(),
    );
    await waitFor(() => expect(location().search).toBe(`?import=${uploaded.id}`));
    expect(upload.calls[0]?.headers.get('Content-Type')).toBe('text/csv');
    expect(upload.calls[0]?.headers.get('X-File-Name')).toBe('guests.csv');
    expect(upload.calls[0]?.text).toBe('Email,First name\nada@example.com,Ada\n');

    expect(
      await screen.findByRole('heading', { name: 'Map the columns of guests.csv' }, SECTION_LOAD),
    ).toBeInTheDocument();
    const preview = screen.getByRole('table', { name: 'The first rows of the file' });
    expect(within(preview).getByText('grace@example.com')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /^E-mail/ })).toHaveTextContent('Email');
    expect(screen.getByRole('combobox', { name: /^First name/ })).toHaveTextContent('First name');
    expect(screen.getByRole('combobox', { name: /^Tags/ })).toHaveTextContent('Not imported');

    await user.click(screen.getByRole('button', { name: 'Start Import' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(start.calls).toHaveLength(0);
    await user.click(screen.getByRole('combobox', { name: /^List/ }));
    await user.click(await screen.findByRole('option', { name: 'Expo guests' }));
    // A list being deleted takes no import: the choice asks for active lists only.
    expect(lists.calls.map(({ url }) => url.searchParams.get('state'))).toContain('active');
    expect(lists.calls.every(({ url }) => url.searchParams.get('state') === 'active')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Start Import' }));

    await waitFor(() => expect(start.calls).toHaveLength(1));
    expect(start.calls[0]?.body).toEqual({
      listId: list.id,
      hasHeader: true,
      mapping: { email: 0, firstName: 1 },
    });
    const progress = await screen.findByRole(
      'progressbar',
      { name: 'Import progress' },
      SECTION_LOAD,
    );
    expect(progress).toBeInTheDocument();
    expect(await screen.findByText('Import complete', {}, { timeout: 6_000 })).toBeInTheDocument();
    expect(screen.getByText('3 of 3 rows read')).toBeInTheDocument();
    expect(document.querySelector('[data-count="created"]')).toHaveTextContent('2');
    expect(document.querySelector('[data-count="invalid"]')).toHaveTextContent('1');

    const recent = screen.getByRole('list', { name: 'Recent imports' });
    expect(await within(recent).findByText('Done')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download error report (1 rows)' }));
    await waitFor(() => expect(report.calls).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Import Another File' }));
    expect(await screen.findByLabelText('Choose a CSV file')).toBeInTheDocument();
  }, 20_000);

  it("says why a file was refused in the API's words, and refuses over 100 MB without sending it", async () => {
    const upload = recordUploads(() =>
      HttpResponse.json(
        {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'No column holds e-mail addresses',
            fields: { file: 'No column holds e-mail addresses' },
          },
        },
        { status: 400 },
      ),
    );
    server.use(upload.handler);
    const { user } = await renderAdmin('/admin/audience/imports', {
      role: 'manager',
      mobile: true,
    });
    const input = await screen.findByLabelText('Choose a CSV file', {}, SECTION_LOAD);

    await user.upload(input, csvFile('names.csv', 'Name\nAda\n'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The file could not be imported');
    expect(alert).toHaveTextContent('No column holds e-mail addresses');

    const huge = csvFile('huge.csv');
    Object.defineProperty(huge, 'size', { value: 110 * 1024 * 1024 });
    await user.upload(input, huge);
    expect(await screen.findByText(/huge\.csv is larger than 100 MB/)).toBeInTheDocument();
    expect(upload.calls).toHaveLength(1);
  });

  it('shows in Recent imports the counts the progress shows, leaving out those of 0', async () => {
    const list = { id: 'b'.repeat(24), name: 'Expo guests' };
    const running = buildImport({
      fileName: 'expo.csv',
      status: 'running',
      rowCount: 40_000,
      list,
      counts: { read: 30_000, created: 30_000, updated: 0, unchanged: 0, skipped: 0, invalid: 0 },
    });
    const rerun = buildImport({
      fileName: 'again.csv',
      status: 'done',
      rowCount: 500,
      list,
      counts: { read: 500, created: 0, updated: 0, unchanged: 498, skipped: 2, invalid: 0 },
    });
    server.use(
      http.get(`${ADMIN}/imports/${running.id}`, () => HttpResponse.json(running)),
      // The list was read as the import started: its copy still says nothing was created.
      adminList('/imports', [
        { ...running, counts: { ...running.counts, read: 0, created: 0 } },
        rerun,
      ]),
    );
    await renderAdmin(`/admin/audience/imports?import=${running.id}`, { role: 'manager' });

    expect(
      await screen.findByText('30,000 of 40,000 rows read', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    const recent = await screen.findByRole('list', { name: 'Recent imports' });
    const row = (file: string) =>
      within(recent).getByRole('button', { name: new RegExp(`^${file}`) }).textContent ?? '';
    await waitFor(() => expect(row('expo.csv')).toContain('Read: 30,000 · Created: 30,000'));
    expect(row('again.csv')).toContain('Read: 500 · Unchanged: 498 · Skipped: 2');
    expect(row('again.csv')).not.toContain('Created');
  });

  it('cancels a running import after confirming', async () => {
    const running = buildImport({
      status: 'running',
      rowCount: 10_000,
      list: { id: 'b'.repeat(24), name: 'Expo guests' },
      counts: { read: 4000, created: 3900, updated: 0, unchanged: 0, skipped: 60, invalid: 40 },
    });
    const cancel = recordAdminCalls('post', `/imports/${running.id}/cancel`, () =>
      HttpResponse.json(running, { status: 202 }),
    );
    server.use(
      cancel.handler,
      http.get(`${ADMIN}/imports/${running.id}`, () => HttpResponse.json(running)),
    );
    const { user } = await renderAdmin(`/admin/audience/imports?import=${running.id}`, {
      role: 'manager',
      mobile: true,
    });

    expect(
      await screen.findByText('4,000 of 10,000 rows read', {}, SECTION_LOAD),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel Import' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel this import?' });
    expect(cancel.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel Import' }));
    await waitFor(() => expect(cancel.calls).toHaveLength(1));
  });

  it('says so when a re-run changed nothing', async () => {
    const rerun = buildImport({
      status: 'done',
      list: { id: 'c'.repeat(24), name: 'Expo guests' },
      counts: { read: 2, created: 0, updated: 0, unchanged: 2, skipped: 0, invalid: 0 },
    });
    server.use(http.get(`${ADMIN}/imports/${rerun.id}`, () => HttpResponse.json(rerun)));
    await renderAdmin(`/admin/audience/imports?import=${rerun.id}`, { role: 'manager' });

    expect(
      await screen.findByText(
        'Nothing changed: every row of this file is already in the list as it is.',
        {},
        SECTION_LOAD,
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Every row was taken: there is no error report.')).toBeInTheDocument();
  });
});

describe('Audience: suppression list', () => {
  it('lists suppressed addresses with reason and source, filters and exports them', async () => {
    const exported = recordAdminCalls(
      'get',
      '/suppressions/export',
      () => new HttpResponse('email\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    );
    const list = recordAdminCalls('get', '/suppressions', () =>
      HttpResponse.json(
        pageOf([
          buildSuppression({ email: 'gone@example.com', campaign: { id: 'x', name: 'Spring' } }),
          buildSuppression({ email: 'angry@example.com', reason: 'complaint', source: 'postmark' }),
        ]),
      ),
    );
    server.use(exported.handler, list.handler);
    URL.createObjectURL = jest.fn(() => 'blob:export');
    URL.revokeObjectURL = jest.fn();
    const { user } = await renderAdmin('/admin/audience/suppression', { role: 'manager' });

    const grid = await findTable('Suppressed addresses');
    const gone = (await within(grid).findByText('gone@example.com')).closest('[role="row"]');
    expect(gone).toHaveTextContent('Hard bounce');
    expect(gone).toHaveTextContent('Amazon SES');
    expect(gone).toHaveTextContent('Spring');
    const angry = within(grid).getByText('angry@example.com').closest('[role="row"]');
    expect(angry).toHaveTextContent('Complaint');
    expect(angry).toHaveTextContent('Postmark');

    await user.click(screen.getByRole('combobox', { name: 'Reason' }));
    await user.click(await screen.findByRole('option', { name: 'Complaint' }));
    await waitFor(() =>
      expect(list.calls.at(-1)?.url.searchParams.get('reason')).toBe('complaint'),
    );
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(exported.calls).toHaveLength(1));
    expect(exported.calls[0]?.url.searchParams.get('reason')).toBe('complaint');
  });

  it('adds an address with a note, and removes one only after confirming', async () => {
    const add = recordAdminCalls('post', '/suppressions', (body) =>
      HttpResponse.json(
        buildSuppression({ ...(body as { email: string }), reason: 'staff', source: 'staff' }),
        { status: 201 },
      ),
    );
    const remove = recordAdminCalls(
      'delete',
      '/suppressions/:key',
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(add.handler, remove.handler);
    const { user } = await renderAdmin('/admin/audience/suppression', {
      role: 'manager',
      mobile: true,
    });

    await user.click(
      await screen.findByRole('button', { name: 'Suppress an Address' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Suppress an Address' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'not-an-address');
    await user.click(within(dialog).getByRole('button', { name: 'Suppress' }));
    expect(
      await within(dialog).findByText('Please enter a valid email address'),
    ).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Email/));
    await user.type(within(dialog).getByLabelText(/^Email/), 'asked@example.com');
    await user.type(within(dialog).getByLabelText(/^Note/), 'Asked by phone');
    await user.click(within(dialog).getByRole('button', { name: 'Suppress' }));
    expect(await screen.findByText('Address suppressed')).toBeInTheDocument();
    expect(add.calls[0]?.body).toEqual({ email: 'asked@example.com', note: 'Asked by phone' });

    await user.click(screen.getByRole('button', { name: 'Remove gone@example.com' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Remove gone@example.com from the suppression list?',
    });
    expect(remove.calls).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('Address removed from the suppression list'),
    ).toBeInTheDocument();
    expect(remove.calls[0]?.url.pathname).toBe('/api/admin/suppressions/gone%40example.com');
  });

  it('shows a failed read with a way to retry', async () => {
    server.use(adminFailure('get', '/suppressions', 500));
    await renderAdmin('/admin/audience/suppression', { role: 'admin', mobile: true });
    expect(
      await screen.findByText('This list could not be loaded.', {}, SECTION_LOAD),
    ).toBeInTheDocument();
  });
});
