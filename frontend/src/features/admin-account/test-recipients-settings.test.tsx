import type { TestRecipientsDto } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import { adminFailure, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { server } from '../../testing/msw-server';

const ROUTE = '/settings/test-recipients';
const INVALID = 'Use an e-mail address (name@client.tn) or a domain (@client.tn)';

/** The allow-list as a server keeps it: each PUT replaces it and is answered with it. */
function storedList(initial: string[]) {
  let entries = initial;
  const dto = (): TestRecipientsDto => ({
    entries,
    updatedAt: '2030-01-02T10:00:00.000Z',
    updatedBy: 'rim',
  });
  const read = recordAdminCalls('get', ROUTE, () => HttpResponse.json(dto()));
  const write = recordAdminCalls('put', ROUTE, (body) => {
    entries = (body as { entries: string[] }).entries;
    return HttpResponse.json(dto());
  });
  server.use(read.handler, write.handler);
  return { reads: read.calls, writes: write.calls };
}

async function card() {
  const heading = await screen.findByRole(
    'heading',
    { name: 'Test mail recipients' },
    SECTION_LOAD,
  );
  const form = screen.getByRole('form', { name: 'Test mail recipients' });
  return {
    heading,
    form,
    field: within(form).getByRole('textbox', { name: /^Address or domain/ }),
  };
}

describe('the test mail recipients in Settings', () => {
  it('lets an admin add an address and a domain from the keyboard, and remove one', async () => {
    const { writes } = storedList([]);
    const { user } = await renderAdmin('/admin/settings');
    const { field } = await card();
    expect(
      await screen.findByText('Nobody yet: test mail goes to staff addresses only.'),
    ).toBeInTheDocument();

    await user.click(field);
    await user.keyboard(' CEO@Client.tn {Enter}');
    expect(await screen.findByText('Test mail recipients saved')).toBeInTheDocument();
    expect(writes[0]?.body).toEqual({ entries: ['ceo@client.tn'] });
    await waitFor(() => expect(field).toHaveValue(''));

    await user.type(field, '@partner.tn{Enter}');
    const list = await screen.findByRole('list', { name: 'Allowed test recipients' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(['ceo@client.tn', '@partner.tn']),
    );
    expect(writes[1]?.body).toEqual({ entries: ['ceo@client.tn', '@partner.tn'] });
    expect(screen.getByText(/Last changed by rim/)).toBeInTheDocument();

    // The remove button is reachable with Tab and names what it removes.
    const remove = within(list).getByRole('button', { name: 'Remove ceo@client.tn' });
    remove.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(writes).toHaveLength(3));
    expect(writes[2]?.body).toEqual({ entries: ['@partner.tn'] });
  });

  it('checks an entry with the API schema before sending it, naming the reason under the field', async () => {
    const { writes } = storedList(['ceo@client.tn']);
    const { user } = await renderAdmin('/admin/settings');
    const { field, form } = await card();
    await screen.findByRole('list', { name: 'Allowed test recipients' });

    await user.type(field, 'not an address');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(INVALID));
    expect(field).toHaveAttribute('aria-invalid', 'true');

    await user.clear(field);
    await user.type(field, 'CEO@client.tn');
    await user.click(within(form).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription('Each address or domain may appear only once'),
    );
    expect(writes).toHaveLength(0);
  });

  it("shows the server's reason under the field and keeps what was typed", async () => {
    storedList([]);
    server.use(
      adminFailure('put', ROUTE, 400, {
        code: 'VALIDATION_FAILED',
        message: 'Some fields are invalid',
        fields: { 'entries[0]': 'The server says no' },
      }),
    );
    const { user } = await renderAdmin('/admin/settings');
    const { field } = await card();
    await user.type(field, 'ceo@client.tn{Enter}');
    expect(await screen.findByText('The test mail recipients could not be saved')).toBeVisible();
    await waitFor(() => expect(field).toHaveAccessibleDescription('The server says no'));
    expect(field).toHaveValue('ceo@client.tn');
  });

  it.each(['manager', 'editor', 'viewer'] as const)(
    'is neither shown to nor read for a %s',
    async (role) => {
      const { reads } = storedList(['ceo@client.tn']);
      await renderAdmin('/admin/settings', { role });
      expect(
        await screen.findByRole('heading', { name: 'Change your password' }, SECTION_LOAD),
      ).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Test mail recipients' })).toBeNull();
      expect(reads).toHaveLength(0);
    },
  );
});
