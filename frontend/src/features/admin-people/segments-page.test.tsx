import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { SegmentDto } from '@agency/contracts';
import { pageOf } from '../../testing/admin-factory';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
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

beforeEach(() => {
  server.use(
    http.get(`${ADMIN}/lists`, () => HttpResponse.json(pageOf([]))),
    http.get(`${ADMIN}/segments`, () => HttpResponse.json(pageOf([FRENCH]))),
  );
});

/** Picks `option` in the select labelled `label`. */
async function choose(
  user: Awaited<ReturnType<typeof renderAdmin>>['user'],
  label: string,
  option: string,
) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Segments', () => {
  it('counts the rule as it is built, adds and removes conditions, and saves the rule', async () => {
    const counts = recordAdminCalls('post', '/segments/count', (body) => {
      const conditions = (body as { conditions: unknown[] }).conditions;
      return HttpResponse.json({ matched: 10 * conditions.length, mailable: conditions.length });
    });
    const saves = recordAdminCalls('post', '/segments', () =>
      HttpResponse.json(
        { ...FRENCH, id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'VIP French' },
        { status: 201 },
      ),
    );
    server.use(counts.handler, saves.handler);
    const { user } = await renderAdmin('/admin/people/segments', { role: 'manager' });

    await user.click(await screen.findByRole('button', { name: 'New segment' }, SECTION_LOAD));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'VIP French');
    await choose(user, 'Value 1', 'French');
    expect(
      await screen.findByText('10 people match; 1 can be mailed (consent given, not suppressed).'),
    ).toBeInTheDocument();
    expect(counts.calls.at(-1)?.body).toEqual(FRENCH.rule);

    await user.click(screen.getByRole('button', { name: 'Add a condition' }));
    const second = screen.getByRole('listitem', { name: 'Condition 2' });
    expect(within(second).getByRole('combobox', { name: 'Field 2' })).toHaveTextContent('Tags');
    await user.type(within(second).getByRole('textbox', { name: 'Value 2' }), 'vip, press');
    expect(
      await screen.findByText('20 people match; 2 can be mailed (consent given, not suppressed).'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove condition 2' }));
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Condition 2' })).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Add a condition' }));
    await user.type(screen.getByRole('textbox', { name: 'Value 2' }), 'vip');
    await user.click(screen.getByRole('button', { name: 'Save segment' }));

    await waitFor(() => expect(saves.calls).toHaveLength(1));
    expect(saves.calls[0]?.body).toEqual({
      name: 'VIP French',
      rule: {
        match: 'all',
        conditions: [
          { field: 'locale', op: 'is', value: 'fr' },
          { field: 'tags', op: 'anyOf', value: ['vip'] },
        ],
      },
    });
  });

  it('asks for no count while a condition has no value', async () => {
    const counts = recordAdminCalls('post', '/segments/count', () =>
      HttpResponse.json({ matched: 1, mailable: 1 }),
    );
    server.use(counts.handler);
    const { user } = await renderAdmin('/admin/people/segments', { role: 'manager' });
    await user.click(await screen.findByRole('button', { name: 'New segment' }, SECTION_LOAD));
    expect(
      screen.getByText('The count appears once every condition has a value.'),
    ).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(counts.calls).toHaveLength(0);
  });

  it('deletes a saved segment once confirmed', async () => {
    const deletes = recordAdminCalls(
      'delete',
      '/segments/:id',
      () => new HttpResponse(null, { status: 204 }),
    );
    server.use(deletes.handler);
    const { user } = await renderAdmin('/admin/people/segments', { role: 'manager' });
    const list = await screen.findByRole('list', { name: 'Saved segments' }, SECTION_LOAD);
    await user.click(within(list).getByRole('button', { name: 'Delete French speakers' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Delete the segment French speakers?',
    });
    expect(deletes.calls).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deletes.calls).toHaveLength(1));
    expect(deletes.calls[0]?.url.pathname).toBe(`/api/admin/segments/${FRENCH.id}`);
  });
});
