import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './preferences-slice';

/** One theme per (mode, direction): MUI mirrors spacing and icons from `direction`. */
export function createAppTheme(mode: ThemeMode, direction: 'ltr' | 'rtl'): Theme {
  return createTheme({
    direction,
    palette: {
      mode,
      primary: { main: mode === 'dark' ? '#a78bfa' : '#5b21b6' },
      secondary: { main: mode === 'dark' ? '#f472b6' : '#be185d' },
      background:
        mode === 'dark'
          ? { default: '#0f0d17', paper: '#1a1625' }
          : { default: '#faf9fc', paper: '#ffffff' },
    },
    shape: { borderRadius: 12 },
    typography: {
      // Arabic glyphs need a font that has them; system stacks do on every platform.
      fontFamily:
        direction === 'rtl'
          ? '"Segoe UI", Tahoma, "Noto Sans Arabic", Arial, sans-serif'
          : '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontWeight: 800 },
      h2: { fontWeight: 800 },
      h3: { fontWeight: 700 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  });
}
