import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './preferences-slice';

/** Bundled with the app (main.tsx imports them): no font is fetched from another host. */
const LATIN_FONTS = '"Inter Variable", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
// Cairo carries Arabic and Latin glyphs, so Arabic pages use one consistent face.
const ARABIC_FONTS = '"Cairo Variable", "Inter Variable", Tahoma, Arial, sans-serif';

/** One theme per (mode, direction): MUI mirrors spacing and icons from `direction`. */
export function createAppTheme(mode: ThemeMode, direction: 'ltr' | 'rtl'): Theme {
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
      background:
        mode === 'dark'
          ? { default: '#0f0d17', paper: '#1a1625' }
          : { default: '#faf9fc', paper: '#ffffff' },
    },
    shape: { borderRadius: 12 },
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
