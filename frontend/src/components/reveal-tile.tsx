import Box, { type BoxProps } from '@mui/material/Box';
import type { Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

/** The class of the part a RevealTile shows on hover, focus or touch. */
export const REVEAL_CLASS = 'reveal-tile-caption';

const shown = { opacity: 1, transform: 'none' } as const;

const revealSx = (theme: Theme) => ({
  position: 'relative',
  overflow: 'hidden',
  outlineOffset: 3,
  [`& .${REVEAL_CLASS}`]: {
    opacity: 0,
    transform: 'translateY(12px)',
    transition: 'opacity 250ms ease, transform 250ms ease',
  },
  [`&:hover .${REVEAL_CLASS}, &:focus-visible .${REVEAL_CLASS}, &:focus-within .${REVEAL_CLASS}`]:
    shown,
  '&:focus-visible': { outline: `3px solid ${theme.palette.primary.main}` },
  // Nothing hovers on a touch screen, and a phone-width layout has room for the
  // words: there the text is always shown.
  '@media (hover: none), (pointer: coarse)': { [`& .${REVEAL_CLASS}`]: shown },
  [theme.breakpoints.down('sm')]: { [`& .${REVEAL_CLASS}`]: shown },
});

export interface RevealTileProps extends Omit<BoxProps, 'children'> {
  /** Always visible (an illustration, a title). */
  children: ReactNode;
  /** Revealed on hover and keyboard focus; always shown on touch screens. */
  caption: ReactNode;
  captionComponent?: 'div' | 'figcaption';
}

/**
 * A card whose text appears on hover. It is focusable, so keyboard users
 * reveal it the same way; the hidden text stays in the accessibility tree.
 */
export function RevealTile({
  children,
  caption,
  captionComponent = 'div',
  sx,
  ...boxProps
}: RevealTileProps) {
  return (
    <Box tabIndex={0} {...boxProps} sx={[revealSx, ...(Array.isArray(sx) ? sx : [sx])]}>
      {children}
      <Box
        component={captionComponent}
        className={REVEAL_CLASS}
        sx={{
          position: 'absolute',
          insetInline: 0,
          bottom: 0,
          p: 2,
          color: 'common.white',
          background:
            'linear-gradient(to top, rgba(0,0,0,0.85) 30%, rgba(0,0,0,0.55) 75%, transparent)',
        }}
      >
        {caption}
      </Box>
    </Box>
  );
}
