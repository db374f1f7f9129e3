import { Node } from '@tiptap/core';

export interface EmailButtonAttributes {
  href: string;
  label: string;
}

/**
 * A call-to-action button as mail clients draw one: a link in a one-cell
 * table, each part marked `data-button` so the server styles it in the
 * template's brand colour (Outlook ignores a styled link's padding).
 */
export const EmailButton = Node.create({
  name: 'emailButton',
  group: 'block',
  atom: true,
  draggable: true,

  addAttributes() {
    return { href: { default: '' }, label: { default: '' } };
  },

  parseHTML() {
    return [
      {
        tag: 'table[data-button]',
        getAttrs: (element) => {
          const link = element.querySelector('a');
          return {
            href: link?.getAttribute('href') ?? '',
            label: link?.textContent ?? '',
          };
        },
      },
    ];
  },

  renderHTML({ node }) {
    const { href, label } = node.attrs as EmailButtonAttributes;
    return [
      'table',
      { 'data-button': '' },
      ['tbody', ['tr', ['td', { 'data-button': '' }, ['a', { 'data-button': '', href }, label]]]],
    ];
  },
});
