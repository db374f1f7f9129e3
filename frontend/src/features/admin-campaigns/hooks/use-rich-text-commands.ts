import { Link } from '@tiptap/extension-link';
import { useEditor, type Editor } from '@tiptap/react';
import { StarterKit } from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';
import { BlockInsert } from '../components/block-insert.extension';
import { EmailButton } from '../components/email-button.extension';
import { MailImage, mailImageAttributes } from '../components/mail-image.extension';
import type { PickedImage } from '../../../components/admin/media/image-picker-dialog';
import type { InsertKind } from '../components/rich-text-insert-dialog';

/**
 * Text typed at a link's end stays outside it: the period after "see
 * agency.tn" is not part of the address. (Tiptap makes links inclusive when
 * autolink is on, so a typed link would swallow whatever follows it.)
 */
const BoundedLink = Link.extend({ inclusive: false });

export type EditorChain = ReturnType<Editor['chain']>;

export interface RichTextCommandsOptions {
  /** The editable area's accessible name, and the id of the text describing it. */
  label: string;
  describedBy: string;
  value: string;
  onChange: (html: string) => void;
  dir: 'ltr' | 'rtl';
  /** The source view is open: the value is being typed as HTML, not in the editor. */
  source: boolean;
}

/** What the editor writes: headings up to the third level, bold, italic, lists, links, images, buttons and dividers. */
function editorExtensions() {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      code: false,
      codeBlock: false,
      strike: false,
      underline: false,
      link: false,
    }),
    BoundedLink.configure({ openOnClick: false, autolink: true, defaultProtocol: 'https' }),
    MailImage,
    EmailButton,
    BlockInsert,
  ];
}

/**
 * The Tiptap editor behind the campaign's content, and what the toolbar and
 * its dialogs do to it: each command runs with the focus back in the text.
 */
export function useRichTextCommands({
  label,
  describedBy,
  value,
  onChange,
  dir,
  source,
}: RichTextCommandsOptions) {
  const emitted = useRef(value);
  const editor = useEditor({
    extensions: editorExtensions(),
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        'aria-describedby': describedBy,
        dir,
      },
    },
    onUpdate: ({ editor: changed }) => {
      emitted.current = changed.getHTML();
      onChange(emitted.current);
    },
  });

  // A value set from outside (the source view, a reset) is shown; the
  // editor's own changes, which come back a render later, are not re-applied.
  useEffect(() => {
    if (editor && !source && value !== emitted.current) {
      emitted.current = value;
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, source, value]);

  const run = (command: (chain: EditorChain) => EditorChain) => {
    if (editor) command(editor.chain().focus()).run();
  };

  /** Shows the value typed in the source view, without sending it back as a change. */
  const showValue = () => {
    if (!editor) return;
    emitted.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  };

  /** The selected text, offered as the inserted link's or button's text. */
  const selectedText = () =>
    editor && !editor.state.selection.empty
      ? editor.state.doc.textBetween(editor.state.selection.from, editor.state.selection.to, ' ')
      : '';

  /**
   * An image from the picker, where the cursor is or where a file was dropped
   * or pasted (`at`), with the cursor after it.
   */
  const insertImage = (image: PickedImage, at?: number) => {
    const attrs = mailImageAttributes(image);
    run((chain) => {
      const placed =
        at === undefined || !editor
          ? chain
          : chain.setTextSelection(Math.min(at, editor.state.doc.content.size));
      return placed.insertBlock({ type: 'image', attrs });
    });
  };

  /** A link on the selection (or new linked text) or a button, from its dialog. */
  const insert = (kind: InsertKind, url: string, text: string) => {
    if (kind === 'link') {
      run((chain) =>
        editor?.state.selection.empty
          ? chain.insertContent({
              type: 'text',
              text: text || url,
              marks: [{ type: 'link', attrs: { href: url } }],
            })
          : chain.extendMarkRange('link').setLink({ href: url }),
      );
    } else {
      run((chain) => chain.insertBlock({ type: 'emailButton', attrs: { href: url, label: text } }));
    }
  };

  return { editor, run, showValue, selectedText, insert, insertImage };
}

export type RichTextCommands = ReturnType<typeof useRichTextCommands>;
