import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from '../lib/preferences-slice';

/** Bundled with the app (main.tsx imports them): no font is fetched from another host. */
const LATIN_FONTS = '"Inter Variable", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
// Cairo carries Arabic and Latin glyphs, so Arabic pages use one consistent face.
const ARABIC_FONTS = '"Cairo Variable", "Inter Variable", Tahoma, Arial, sans-serif';

/** No transition at all: drawers, dialogs and menus appear and go at once. */
const NO_MOTION = {
  create: () => 'none',
  duration: {
    shortest: 0,
    shorter: 0,
    short: 0,
    standard: 0,
    complex: 0,
    enteringScreen: 0,
    leavingScreen: 0,
  },
};

/**
 * One theme per (mode, direction, motion): MUI mirrors spacing and icons
 * from `direction`; a visitor who asks for less motion gets none from MUI's
 * transitions (the stylesheet below stops CSS animations).
 */
export function createAppTheme(
  mode: ThemeMode,
  direction: 'ltr' | 'rtl',
  reducedMotion = false,
): Theme {
  const primary = mode === 'dark' ? '#a78bfa' : '#5b21b6';
  // A coloured ring with a light halo: visible on light pages and on dark bands alike.
  const focusRing = {
    outline: `3px solid ${primary}`,
    outlineOffset: 2,
    boxShadow: '0 0 0 5px #ffffff',
  };
  return createTheme({
    direction,
    palette: {
      mode,
      primary: { main: primary },
      secondary: { main: mode === 'dark' ? '#f472b6' : '#be185d' },
      // MUI's light info and warning blues and oranges read at under 4.5:1 as text
      // on white (an outlined status chip's label); these read at 7:1 and 5:1.
      ...(mode === 'light' ? { info: { main: '#01579b' }, warning: { main: '#b45309' } } : {}),
      background:
        mode === 'dark'
          ? { default: '#0f0d17', paper: '#1a1625' }
          : { default: '#faf9fc', paper: '#ffffff' },
    },
    shape: { borderRadius: 12 },
    ...(reducedMotion ? { transitions: NO_MOTION } : {}),
    typography: {
      fontFamily: direction === 'rtl' ? ARABIC_FONTS : LATIN_FONTS,
      h1: { fontWeight: 800 },
      h2: { fontWeight: 800 },
      h3: { fontWeight: 700 },
      h4: { fontWeight: 700 },
      h5: { fontWeight: 600 },
      h6: { fontWeight: 600 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      // The ripple was the only focus cue of many controls, and a faint one; the
      // explicit ring below replaces it for keyboard users.
      MuiButtonBase: {
        defaultProps: { disableRipple: true },
        styleOverrides: { root: { '&.Mui-focusVisible': focusRing } },
      },
      MuiButton: { defaultProps: { disableElevation: true } },
      // MUI removes the text fields' outline; keyboard users get the same ring as on
      // every other control, drawn around the text itself, inside the field's border.
      MuiInputBase: {
        styleOverrides: { input: { '&:focus-visible': { ...focusRing, boxShadow: 'none' } } },
      },
      MuiCssBaseline: {
        styleOverrides: {
          ':focus-visible': focusRing,
          // Visitors who ask their system for less motion get no animations or smooth scrolling.
          '@media (prefers-reduced-motion: reduce)': {
            '*, *::before, *::after': {
              animationDuration: '0.01ms !important',
              animationIterationCount: '1 !important',
              transitionDuration: '0.01ms !important',
              scrollBehavior: 'auto !important',
            },
          },
        },
      },
    },
  });
}
