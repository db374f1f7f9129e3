/**
 * Hides text on screen but keeps it for screen readers (an `sx` value). Sizes
 * are strings: in `sx`, a bare 1 would mean 100%. Put it on a block, not on a
 * table: a table never gets narrower than its content, so it would not shrink.
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
