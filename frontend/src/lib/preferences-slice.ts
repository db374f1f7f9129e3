import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStorage, STORAGE_KEYS } from './storage';

export type ThemeMode = 'light' | 'dark';

export interface PreferencesState {
  themeMode: ThemeMode;
}

/** The spec stores the theme as the bare words 'dark' or 'light'; anything else means light. */
function storedThemeMode(): ThemeMode {
  return readStorage(STORAGE_KEYS.theme) === 'dark' ? 'dark' : 'light';
}

export const preferencesSlice = createSlice({
  name: 'preferences',
  // Lazy so every store (one per test) reads the current storage, not the one at import time.
  initialState: (): PreferencesState => ({ themeMode: storedThemeMode() }),
  reducers: {
    setThemeMode(state, action: PayloadAction<ThemeMode>) {
      state.themeMode = action.payload;
    },
    toggleThemeMode(state) {
      state.themeMode = state.themeMode === 'dark' ? 'light' : 'dark';
    },
  },
});

export const { setThemeMode, toggleThemeMode } = preferencesSlice.actions;
