import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { keysetPageOf } from '../../../testing/admin-factory';
import { ADMIN } from '../../../testing/handlers/admin-handlers';
import { buildMedia } from '../../../testing/media-factory';
import { server } from '../../../testing/msw-server';
import { renderWithProviders, UNSTYLED } from '../../../testing/render';
import { ImagePickerDialog, type PickedImage } from './image-picker-dialog';

const BANNER = buildMedia({ name: 'Spring banner', width: 1200, height: 800 });
const LOGO = buildMedia({ name: 'Agency logo', width: 400, height: 120 });

beforeEach(() => {
  server.use(
    http.get(`${ADMIN}/media`, ({ request }) => {
      const search = new URL(request.url).searchParams.get('search')?.toLowerCase() ?? '';
      return HttpResponse.json(
        keysetPageOf([BANNER, LOGO].filter((item) => item.name.toLowerCase().includes(search))),
      );
    }),
  );
});

async function renderPicker() {
  const picked: PickedImage[] = [];
  const rendered = await renderWithProviders(
    <ImagePickerDialog onPick={(image) => picked.push(image)} onClose={() => undefined} />,
    UNSTYLED,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Insert an image' });
  return { ...rendered, dialog, picked };
}

describe('the image picker', () => {
  it('refuses an empty description unless the image is marked decorative', async () => {
    const { user, dialog, picked } = await renderPicker();
    await user.click(await within(dialog).findByRole('button', { name: 'Choose Spring banner' }));

    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    expect(
      await within(dialog).findByText('Describe the image, or mark it as decorative'),
    ).toBeInTheDocument();
    expect(picked).toEqual([]);

    await user.click(
      within(dialog).getByRole('checkbox', { name: 'Decorative image (no description)' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
    await screen.findByRole('dialog');
    expect(picked).toEqual([{ url: BANNER.url, alt: '', width: 1200, height: 800 }]);
  });

  it('searches the library and gives back the mail variant with its description', async () => {
    const { user, dialog, picked } = await renderPicker();
    await within(dialog).findByRole('button', { name: 'Choose Spring banner' });
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search by name' }), 'logo');
    await waitFor(() =>
      expect(within(dialog).queryByRole('button', { name: 'Choose Spring banner' })).toBeNull(),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Choose Agency logo' }));
    await user.type(within(dialog).getByLabelText(/^Description/), '  Agency logo  ');
    await user.click(within(dialog).getByRole('button', { name: 'Insert' }));

    await screen.findByRole('dialog');
    expect(picked).toEqual([{ url: LOGO.url, alt: 'Agency logo', width: 400, height: 120 }]);
  });
});
