import type { MediaUploadResponse } from '@agency/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { UserEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { ADMIN } from '../../testing/handlers/admin-handlers';
import { buildMedia, imageFile } from '../../testing/media-factory';
import { server } from '../../testing/msw-server';
import { renderWithProviders, UNSTYLED } from '../../testing/render';
import { RichTextEditor } from './components/rich-text-editor';

// ProseMirror in jsdom: slow when the suites share two cores.
jest.setTimeout(60_000);

const BUTTON =
  '<table data-button=""><tbody><tr><td data-button="">' +
  '<a data-button="" href="https://agency.tn/book">Book a call</a></td></tr></tbody></table>';
const IMAGE =
  '<img src="https://cdn.agency.tn/spring.png" alt="Spring" style="max-width: 100%; height: auto;">';

/** The editor as a form holds it, with what it last wrote readable by the test. */
async function renderEditor(initial = '') {
  let written = initial;
  function ControlledEditor() {
    const [value, setValue] = useState(initial);
    return (
      <RichTextEditor
        label="Content"
        value={value}
        onChange={(html) => {
          written = html;
          setValue(html);
        }}
      />
    );
  }
  const rendered = await renderWithProviders(<ControlledEditor />, UNSTYLED);
  const editor = screen.getByRole('textbox', { name: 'Content' });
  return { ...rendered, editor, html: () => written };
}

/** Each insert dialog: its title and its two fields' labels. */
const INSERTS = {
  Button: { title: 'Insert a button', url: /^Button link/, text: /^Button text/ },
  Link: { title: 'Insert a link', url: /^Address/, text: /^Text/ },
} as const;

/** An image by its address, through the image picker's Address tab, then its alt text. */
async function insertImageByAddress(user: UserEvent, url: string, alt: string) {
  await user.click(screen.getByRole('button', { name: 'Image' }));
  const dialog = await screen.findByRole('dialog', { name: 'Insert an image' });
  await user.click(within(dialog).getByRole('tab', { name: 'Address' }));
  await user.type(within(dialog).getByLabelText(/^Image address/), url);
  await user.click(within(dialog).getByRole('button', { name: 'Use this address' }));
  await user.type(await within(dialog).findByLabelText(/^Description/), alt);
  await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(screen.getByRole('textbox', { name: 'Content' })).toHaveFocus();
}

async function insertFromToolbar(
  user: UserEvent,
  tool: keyof typeof INSERTS,
  url: string,
  text: string,
) {
  const { title, url: urlLabel, text: textLabel } = INSERTS[tool];
  await user.click(screen.getByRole('button', { name: tool }));
  const dialog = await screen.findByRole('dialog', { name: title });
  await user.type(within(dialog).getByLabelText(urlLabel), url);
  await user.type(within(dialog).getByLabelText(textLabel), text);
  await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(screen.getByRole('textbox', { name: 'Content' })).toHaveFocus();
}

describe('the rich-text editor', () => {
  it('keeps a button just inserted when the next keys are typed, writing them after it', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);
    await user.keyboard('Spring offers');

    await insertFromToolbar(user, 'Button', 'https://agency.tn/book', 'Book a call');
    expect(editor).toHaveFocus();
    await user.keyboard('See you soon');

    expect(html()).toBe(`<p>Spring offers</p>${BUTTON}<p>See you soon</p>`);
  });

  it('keeps a button in an empty editor when an image is inserted at once, below it', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);

    await insertFromToolbar(user, 'Button', 'https://agency.tn/book', 'Book a call');
    await insertImageByAddress(user, 'https://cdn.agency.tn/spring.png', 'Spring');
    await user.keyboard('Caption');

    expect(html()).toBe(`${BUTTON}${IMAGE}<p>Caption</p>`);
  });

  it('keeps a divider when a button follows it at once, and text after both', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);
    await user.keyboard('Offers');
    await user.click(screen.getByRole('button', { name: 'Divider' }));
    await insertFromToolbar(user, 'Button', 'https://agency.tn/book', 'Book a call');
    await user.keyboard('More soon');

    expect(html()).toBe(`<p>Offers</p><hr>${BUTTON}<p>More soon</p>`);
  });

  it('writes a period typed right after a link outside the link', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);
    await user.keyboard('Read more on ');

    await insertFromToolbar(user, 'Link', 'https://agency.tn', 'our site');
    await user.keyboard('. Thanks');

    expect(html()).toBe(
      '<p>Read more on <a target="_blank" rel="noopener noreferrer nofollow" href="https://agency.tn">our site</a>. Thanks</p>',
    );
  });

  it('has the caret back in the text as the dialog goes, even when the next frame is late', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);
    await user.keyboard('Hello');
    await user.click(screen.getByRole('button', { name: 'Button' }));
    const dialog = await screen.findByRole('dialog', { name: 'Insert a button' });
    await user.type(within(dialog).getByLabelText(/^Button link/), 'https://agency.tn/book');
    await user.type(within(dialog).getByLabelText(/^Button text/), 'Book a call');

    // A loaded machine: no frame is drawn between the click and the next keys.
    // Tiptap's own focus waits for a frame, and the closing dialog hands the
    // focus to the toolbar button, where a typed space would open it again.
    const frames = jest.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(editor).toHaveFocus();
      await user.keyboard(' Bye');
    } finally {
      frames.mockRestore();
    }
    expect(html()).toBe(`<p>Hello</p>${BUTTON}<p> Bye</p>`);
  });

  it('inserts a button with the keyboard alone, and goes on typing after it', async () => {
    const { user, editor, html } = await renderEditor();
    await user.click(editor);
    await user.keyboard('Hello');

    // Back from the text to the toolbar: the source view, Variables, Divider, then Button.
    for (let step = 0; step < 4; step += 1) await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Button' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Insert a button' });
    expect(within(dialog).getByLabelText(/^Button link/)).toHaveFocus();
    await user.keyboard('https://agency.tn/book');
    await user.tab();
    await user.keyboard('Book a call');
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Insert' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(editor).toHaveFocus();
    await user.keyboard('Bye');
    expect(html()).toBe(`<p>Hello</p>${BUTTON}<p>Bye</p>`);
  });

  describe('with an image file dropped or pasted', () => {
    const STORED = buildMedia({
      name: 'spring.png',
      contentType: 'image/png',
      width: 1200,
      height: 800,
      url: 'https://agency.example/api/media/spring.png',
    });
    const UPLOADED =
      '<img src="https://agency.example/api/media/spring.png" alt="Spring flowers" ' +
      'width="600" height="400" style="max-width: 100%; height: auto;">';

    /** The library stores each upload as STORED, and the test can read what was sent. */
    function recordUploads() {
      const files: string[] = [];
      server.use(
        http.post(`${ADMIN}/media`, async ({ request }) => {
          const file = (await request.formData()).get('file');
          files.push(file instanceof Blob && 'name' in file ? String(file.name) : 'none');
          return HttpResponse.json<MediaUploadResponse>(
            { item: STORED, duplicate: false },
            { status: 201 },
          );
        }),
      );
      return files;
    }

    async function describeAndInsert(user: UserEvent, alt: string) {
      const dialog = await screen.findByRole('dialog', { name: 'Insert an image' });
      await user.type(await within(dialog).findByLabelText(/^Description/), alt);
      await user.click(within(dialog).getByRole('button', { name: 'Insert' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    }

    it('uploads a dropped image, asks its alt text, and inserts it sized for mail with the cursor after it', async () => {
      const uploads = recordUploads();
      const { user, editor, html } = await renderEditor();
      await user.click(editor);
      await user.keyboard('Our spring');

      fireEvent.drop(editor, {
        dataTransfer: { files: [imageFile('spring.png')], types: ['Files'] },
      });
      await describeAndInsert(user, 'Spring flowers');
      await user.keyboard('Caption');

      expect(uploads).toEqual(['spring.png']);
      expect(html()).toBe(`<p>Our spring</p>${UPLOADED}<p>Caption</p>`);
    });

    it('uploads a pasted image the same way', async () => {
      const uploads = recordUploads();
      const { user, editor, html } = await renderEditor();
      await user.click(editor);

      fireEvent.paste(editor, {
        clipboardData: { files: [imageFile('spring.png')], types: ['Files'], getData: () => '' },
      });
      await describeAndInsert(user, 'Spring flowers');

      expect(uploads).toEqual(['spring.png']);
      expect(html()).toContain(UPLOADED);
    });
  });
});
