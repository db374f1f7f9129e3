import { VALIDATION_MESSAGES, type MediaDto, type MediaUploadResponse } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { keysetPageOf } from '../../testing/admin-factory';
import { renderAdmin, SECTION_LOAD } from '../../testing/admin-render';
import { ADMIN, recordAdminCalls } from '../../testing/handlers/admin-handlers';
import { i18n } from '../../testing/i18n';
import { buildMedia, imageFile } from '../../testing/media-factory';
import { server } from '../../testing/msw-server';

const BANNER = buildMedia({
  name: 'Spring banner',
  width: 1200,
  height: 800,
  size: 1_572_864,
  usedBy: [
    { kind: 'campaign', id: 'c'.repeat(24), name: 'Spring sale', status: 'draft' },
    { kind: 'template', id: 't'.repeat(24), name: 'Brand layout' },
  ],
});
const LOGO = buildMedia({ name: 'Agency logo', width: 400, height: 120, size: 12_800 });

/** The library answers with the images whose name holds the search, like the API. */
function libraryOf(items: MediaDto[]) {
  return recordAdminCalls('get', '/media', (_body, request) => {
    const search = new URL(request.url).searchParams.get('search')?.toLowerCase() ?? '';
    return HttpResponse.json(
      keysetPageOf(items.filter((item) => item.name.toLowerCase().includes(search))),
    );
  });
}

function cardOf(name: string): HTMLElement {
  const list = screen.getByRole('list', { name: 'Images' });
  const image = within(list).getByRole('img', { name });
  const card = image.closest('article');
  if (!card) throw new Error(`no card holds ${name}`);
  return card;
}

describe('the media library screen', () => {
  it('lists each image with its size, dimensions and uses, and searches by name', async () => {
    const library = libraryOf([BANNER, LOGO]);
    server.use(library.handler);
    const { user, location } = await renderAdmin('/admin/media', { role: 'manager' });

    await screen.findByRole('img', { name: 'Spring banner' }, SECTION_LOAD);
    const banner = cardOf('Spring banner');
    expect(within(banner).getByText('1,200 × 800 px · 1.5 MB')).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'campaign Spring sale' })).toHaveAttribute(
      'href',
      '/admin/campaigns',
    );
    expect(within(banner).getByRole('link', { name: 'template Brand layout' })).toHaveAttribute(
      'href',
      '/admin/campaigns?view=templates',
    );
    const logo = cardOf('Agency logo');
    expect(within(logo).getByText('400 × 120 px · 12.5 KB')).toBeInTheDocument();
    expect(within(logo).getByText('Not used')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'logo');
    await waitFor(() =>
      expect(screen.queryByRole('img', { name: 'Spring banner' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('img', { name: 'Agency logo' })).toBeInTheDocument();
    // Debounced: one request for the whole word, not one per key.
    const searches = library.calls.map((call) => call.url.searchParams.get('search'));
    expect(searches.filter(Boolean)).toEqual(['logo']);
    // Kept in the address: a reload or a shared link shows the same search.
    expect(new URLSearchParams(location().search).get('search')).toBe('logo');
  });

  it('shows an empty library with a call to upload, to those who may', async () => {
    server.use(libraryOf([]).handler);
    await renderAdmin('/admin/media', { role: 'manager' });
    expect(await screen.findByText('No images yet', {}, SECTION_LOAD)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Upload images' })).toHaveLength(2);
  });

  it('offers neither upload nor delete to a role that only reads campaigns', async () => {
    server.use(libraryOf([LOGO]).handler);
    await renderAdmin('/admin/media', { role: 'viewer' });
    await screen.findByRole('img', { name: 'Agency logo' }, SECTION_LOAD);
    expect(screen.queryByRole('button', { name: /upload/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Agency logo' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Agency logo' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy URL of Agency logo' })).toBeInTheDocument();
  });

  it('copies the public URL to the clipboard and says so', async () => {
    server.use(libraryOf([LOGO]).handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });
    const writeText = jest.spyOn(navigator.clipboard, 'writeText').mockResolvedValue();

    await user.click(
      await screen.findByRole('button', { name: 'Copy URL of Agency logo' }, SECTION_LOAD),
    );

    expect(writeText).toHaveBeenCalledWith(LOGO.url);
    expect(await screen.findByText('URL copied')).toBeInTheDocument();
  });

  it('names the campaigns and templates using an image, and forces the delete only once confirmed', async () => {
    const deletes = recordAdminCalls('delete', `/media/${BANNER.id}`, () =>
      HttpResponse.json(null, { status: 200 }),
    );
    server.use(libraryOf([BANNER, LOGO]).handler, deletes.handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    await user.click(
      await screen.findByRole('button', { name: 'Delete Spring banner' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete Spring banner?' });
    expect(within(dialog).getByText('campaign Spring sale')).toBeInTheDocument();
    expect(within(dialog).getByText('template Brand layout')).toBeInTheDocument();
    expect(within(dialog).getByText('Their mails will show a broken image.')).toBeInTheDocument();
    expect(deletes.calls).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes.calls).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Spring banner' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete anyway' }),
    );
    await waitFor(() => expect(deletes.calls).toHaveLength(1));
    expect(deletes.calls[0]?.url.searchParams.get('force')).toBe('true');
    expect(await screen.findByText('Image deleted')).toBeInTheDocument();
  });

  it('renames an image from its card: the name is sent and the card shows the new one', async () => {
    const items = [LOGO];
    const renames = recordAdminCalls('patch', `/media/${LOGO.id}`, (body) => {
      const { name } = body as { name: string };
      items[0] = { ...LOGO, name };
      return HttpResponse.json(items[0]);
    });
    server.use(libraryOf(items).handler, renames.handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    const button = await screen.findByRole('button', { name: 'Rename Agency logo' }, SECTION_LOAD);
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Rename Agency logo' });
    const field = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(field).toHaveValue('Agency logo');
    expect(field).toHaveFocus();

    // Escape leaves without a call, back on the button that opened the dialog.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(button).toHaveFocus();
    expect(renames.calls).toHaveLength(0);

    await user.click(button);
    const again = await screen.findByRole('dialog', { name: 'Rename Agency logo' });
    await user.clear(within(again).getByRole('textbox', { name: 'Name' }));
    await user.type(within(again).getByRole('textbox', { name: 'Name' }), 'Logo 2026{Enter}');

    await waitFor(() => expect(renames.calls).toHaveLength(1));
    expect(renames.calls[0]?.body).toEqual({ name: 'Logo 2026' });
    expect(await screen.findByText('Image renamed')).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'Logo 2026' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Rename Logo 2026' })).toHaveFocus();
  });

  it("checks the new name with the API's schema, and shows the API's refusal on the field", async () => {
    const renames = recordAdminCalls('patch', `/media/${LOGO.id}`, () =>
      HttpResponse.json(
        {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'The name was refused',
            fields: { name: 'This name is not allowed here' },
          },
        },
        { status: 400 },
      ),
    );
    server.use(libraryOf([LOGO]).handler, renames.handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    await user.click(
      await screen.findByRole('button', { name: 'Rename Agency logo' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Rename Agency logo' });
    const field = within(dialog).getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Empty: refused by the schema before any call.
    expect(await within(dialog).findByText(VALIDATION_MESSAGES.en.required)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(renames.calls).toHaveLength(0);

    await user.type(field, 'Forbidden');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(renames.calls).toHaveLength(1));
    expect(await within(dialog).findByText('This name is not allowed here')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveValue('Forbidden');
    // The card behind the open dialog keeps the stored name.
    expect(screen.getByRole('img', { name: 'Agency logo', hidden: true })).toBeInTheDocument();
  });

  it('keeps an image a campaign still to be sent shows, naming the campaign, when the API refuses (409)', async () => {
    await i18n.changeLanguage('fr');
    // The list was read before the campaign was scheduled: it still says draft.
    const scheduled: MediaDto = {
      ...BANNER,
      usedBy: [{ kind: 'campaign', id: 'c'.repeat(24), name: 'Spring sale', status: 'scheduled' }],
    };
    const deletes = recordAdminCalls('delete', `/media/${BANNER.id}`, () =>
      HttpResponse.json(
        {
          error: {
            code: 'CONFLICT',
            message:
              'This image is in mails still to be sent by campaign "Spring sale"; delete it once they are sent or cancelled',
            fields: { usedBy: 'campaign "Spring sale"' },
          },
        },
        { status: 409 },
      ),
    );
    server.use(
      libraryOf([BANNER]).handler,
      deletes.handler,
      http.get(`${ADMIN}/media/${BANNER.id}`, () => HttpResponse.json(scheduled)),
    );
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    await user.click(
      await screen.findByRole('button', { name: 'Supprimer Spring banner' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Supprimer Spring banner ?' });
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer quand même' }));
    await waitFor(() => expect(deletes.calls).toHaveLength(1));
    expect(deletes.calls[0]?.url.searchParams.get('force')).toBe('true');

    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent(
      'Cette image figure dans des courriels encore à envoyer par :',
    );
    expect(within(refusal).getByRole('link', { name: 'la campagne Spring sale' })).toHaveAttribute(
      'href',
      '/admin/campaigns',
    );
    expect(refusal).toHaveTextContent('reste dans la médiathèque');
    expect(within(dialog).getByRole('button', { name: 'Supprimer quand même' })).toBeDisabled();
    expect(screen.queryByText('Image supprimée')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('img', { name: 'Spring banner' })).toBeInTheDocument();
    expect(deletes.calls).toHaveLength(1);
  });

  it('offers no delete while the list already shows a campaign still to be sent', async () => {
    const sending = buildMedia({
      name: 'Launch hero',
      usedBy: [{ kind: 'campaign', id: 'd'.repeat(24), name: 'Launch', status: 'sending' }],
    });
    const deletes = recordAdminCalls('delete', `/media/${sending.id}`, () =>
      HttpResponse.json(null, { status: 200 }),
    );
    server.use(libraryOf([sending]).handler, deletes.handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    await user.click(
      await screen.findByRole('button', { name: 'Delete Launch hero' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete Launch hero?' });
    expect(within(dialog).getByText('This image is in mails still to be sent by:')).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'campaign Launch' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete anyway' })).toBeDisabled();
    expect(deletes.calls).toHaveLength(0);
  });

  it('deletes an unused image without forcing it', async () => {
    const deletes = recordAdminCalls('delete', `/media/${LOGO.id}`, () =>
      HttpResponse.json(null, { status: 200 }),
    );
    server.use(libraryOf([LOGO]).handler, deletes.handler);
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });

    await user.click(
      await screen.findByRole('button', { name: 'Delete Agency logo' }, SECTION_LOAD),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete Agency logo?' });
    expect(within(dialog).queryByText('Their mails will show a broken image.')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deletes.calls).toHaveLength(1));
    expect(deletes.calls[0]?.url.searchParams.has('force')).toBe(false);
  });

  it("shows an upload's refusal in the admin's language, and a duplicate as already there", async () => {
    await i18n.changeLanguage('fr');
    const stored: MediaUploadResponse = { item: LOGO, duplicate: true };
    let answered = 0;
    server.use(
      libraryOf([LOGO]).handler,
      http.post(`${ADMIN}/media`, () => {
        answered += 1;
        if (answered === 1) {
          return HttpResponse.json(
            {
              error: {
                code: 'UNSUPPORTED_MEDIA_TYPE',
                message: 'The upload was refused',
                fields: { file: VALIDATION_MESSAGES.en.mediaContentMismatch },
              },
            },
            { status: 415 },
          );
        }
        return HttpResponse.json(stored, { status: 200 });
      }),
    );
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });
    await screen.findByRole('img', { name: 'Agency logo' }, SECTION_LOAD);
    const input = document.querySelector<HTMLInputElement>('[data-testid="media-file-input"]');
    if (!input) throw new Error('no file input');

    await user.upload(input, imageFile('fake.png'));
    expect(
      await screen.findByText(new RegExp(VALIDATION_MESSAGES.fr.mediaContentMismatch)),
    ).toBeInTheDocument();

    await user.upload(input, imageFile('logo-again.png'));
    expect(await screen.findByText('logo-again.png: Déjà dans la médiathèque')).toBeInTheDocument();
  });

  it('shows each upload in progress while it runs', async () => {
    server.use(
      libraryOf([LOGO]).handler,
      http.post(`${ADMIN}/media`, async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const { user } = await renderAdmin('/admin/media', { role: 'manager' });
    await screen.findByRole('img', { name: 'Agency logo' }, SECTION_LOAD);
    const input = document.querySelector<HTMLInputElement>('[data-testid="media-file-input"]');
    if (!input) throw new Error('no file input');

    await user.upload(input, [imageFile('one.png'), imageFile('two.png')]);

    const uploads = screen.getByRole('list', { name: 'Uploads' });
    expect(
      await within(uploads).findByRole('progressbar', { name: 'Uploading one.png' }),
    ).toBeInTheDocument();
    expect(
      within(uploads).getByRole('progressbar', { name: 'Uploading two.png' }),
    ).toBeInTheDocument();
  });
});
