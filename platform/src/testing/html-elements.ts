import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** Every element of `name` in an HTML document or fragment, in document order: what tests read of a mail's HTML. */
export function elementsNamed(html: string, name: string): Element[] {
  const found: Element[] = [];
  const visit = (node: { children?: unknown[] }) => {
    for (const child of (node.children ?? []) as Element[]) {
      if (child.name === name) found.push(child);
      visit(child);
    }
  };
  visit(parseDocument(html));
  return found;
}
