/**
 * jsdom lays nothing out, and the rich-text editor (ProseMirror) measures
 * the selection to keep it in view and to map clicks to positions. Empty
 * measures let it run; no test depends on a position on screen.
 */
const emptyRect = (): DOMRect => new DOMRect(0, 0, 0, 0);
const emptyRects = (): DOMRectList => {
  const list = [] as unknown as DOMRectList & DOMRect[];
  Object.defineProperty(list, 'item', { value: () => null });
  return list;
};

if (typeof Range !== 'undefined') {
  Range.prototype.getBoundingClientRect ??= emptyRect;
  Range.prototype.getClientRects ??= emptyRects;
}
document.elementFromPoint ??= () => null;
