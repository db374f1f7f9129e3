import { Extension, type JSONContent } from '@tiptap/core';
import { NodeSelection, TextSelection, type Transaction } from '@tiptap/pm/state';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    blockInsert: {
      /** Inserts a block (a button, an image, a divider) and puts the cursor in the text after it. */
      insertBlock: (content: JSONContent) => ReturnType;
    };
  }
}

/**
 * ProseMirror leaves a block it has just inserted selected as a whole when
 * no text follows it (the end of the document, the end of a paragraph), so
 * the next key typed or the next insert replaces it. The cursor goes into
 * the text after it instead, in a new paragraph when there is none.
 */
function moveCursorPastInsertedBlock(tr: Transaction): void {
  if (!(tr.selection instanceof NodeSelection)) return;
  const after = tr.selection.to;
  const $after = tr.doc.resolve(after);
  if (!$after.nodeAfter?.isTextblock) {
    const paragraph = $after.parent.contentMatchAt($after.index()).defaultType;
    if (!paragraph?.isTextblock) return;
    tr.insert(after, paragraph.create());
  }
  tr.setSelection(TextSelection.create(tr.doc, after + 1)).scrollIntoView();
}

/** `insertBlock`: what the toolbar inserts whole, with the cursor after it. */
export const BlockInsert = Extension.create({
  name: 'blockInsert',

  addCommands() {
    return {
      insertBlock:
        (content) =>
        ({ commands, tr, dispatch }) => {
          if (!commands.insertContent(content)) return false;
          if (dispatch) moveCursorPastInsertedBlock(tr);
          return true;
        },
    };
  },
});
