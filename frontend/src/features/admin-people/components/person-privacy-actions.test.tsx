import type { ErasureDto } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { signInAs } from '../../../testing/admin-session';
import { recordAdminCalls } from '../../../testing/handlers/admin-handlers';
import { server } from '../../../testing/msw-server';
import { renderWithProviders, UNSTYLED } from '../../../testing/render';
import { PersonPrivacyActions } from './person-privacy-actions';

const EMAIL = 'ada@example.tn';
const ENCODED = encodeURIComponent(EMAIL);
const ID = 'a'.repeat(32);

const erasure = (state: ErasureDto['state'], stepsDone: number): ErasureDto => ({
  id: ID,
  state,
  requestedAt: '2026-05-04T10:00:00.000Z',
  finishedAt: state === 'done' ? '2026-05-04T10:00:05.000Z' : null,
  stepsDone,
  stepsTotal: 12,
});

async function renderActions() {
  signInAs('admin');
  return renderWithProviders(<PersonPrivacyActions email={EMAIL} />, UNSTYLED);
}

describe('PersonPrivacyActions', () => {
  it("downloads the person's data as the file the API names", async () => {
    const download = recordAdminCalls('get', `/people/${ENCODED}/data`, () =>
      HttpResponse.json(
        { formatVersion: 1 },
        {
          headers: { 'Content-Disposition': 'attachment; filename="person-data-2026-05-04.json"' },
        },
      ),
    );
    server.use(download.handler);
    Object.assign(URL, {
      createObjectURL: jest.fn(() => 'blob:person'),
      revokeObjectURL: jest.fn(),
    });
    const clicked: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    try {
      const { user } = await renderActions();
      await user.click(screen.getByRole('button', { name: 'Download data' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(clicked[0]?.download).toBe('person-data-2026-05-04.json');
      expect(download.calls[0]?.headers.get('Authorization')).toBe('Bearer token-of-admin');
    } finally {
      click.mockRestore();
    }
  });

  it('erases only once the address is typed again, then follows the job until it is done', async () => {
    const erase = recordAdminCalls('post', `/people/${ENCODED}/erasure`, () =>
      HttpResponse.json(erasure('queued', 0), { status: 202 }),
    );
    // What each read of the erasure answers, in turn; the last answer stays.
    const answers = [erasure('running', 5), erasure('done', 12)];
    const polls = recordAdminCalls('get', `/erasures/${ID}`, () =>
      HttpResponse.json(answers.length > 1 ? answers.shift() : answers[0]),
    );
    server.use(erase.handler, polls.handler);
    const { user } = await renderActions();

    await user.click(screen.getByRole('button', { name: 'Erase this person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase this person?' });
    const field = within(dialog).getByLabelText(/Type the address to confirm/);
    await user.type(field, 'someone@example.tn');
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));
    expect(await within(dialog).findByText(`Type exactly ${EMAIL}`)).toBeInTheDocument();
    expect(erase.calls).toHaveLength(0);

    await user.clear(field);
    await user.type(field, 'ADA@example.tn');
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(erase.calls[0]?.body).toEqual({ confirm: 'ADA@example.tn' });
    expect(await screen.findByText('Erasing… (5 of 12 steps)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Erasure progress' })).toBeInTheDocument();
    expect(
      await screen.findByText('Erased. A confirmation mail was sent to the person.', undefined, {
        timeout: 4000,
      }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const reads = polls.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(polls.calls).toHaveLength(reads);
  });

  it("shows the API's refusal in the dialog and keeps it open", async () => {
    server.use(
      recordAdminCalls('post', `/people/${ENCODED}/erasure`, () =>
        HttpResponse.json(
          { error: { code: 'FORBIDDEN', message: 'You do not have permission to do this' } },
          { status: 403 },
        ),
      ).handler,
    );
    const { user } = await renderActions();
    await user.click(screen.getByRole('button', { name: 'Erase this person' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Type the address to confirm/), EMAIL);
    await user.click(within(dialog).getByRole('button', { name: 'Erase' }));
    expect(
      await within(dialog).findByText('You do not have permission to do this'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
