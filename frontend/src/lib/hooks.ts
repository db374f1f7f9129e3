import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { PreferencesState } from './preferences-slice';

/**
 * The part of the store every page can count on. app/store.ts builds the
 * store from these slices (plus the API, injected on demand); features read
 * and dispatch through the hooks below, so they never import app/.
 */
export interface SharedState {
  preferences: PreferencesState;
}

export type SharedDispatch = ThunkDispatch<SharedState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<SharedDispatch>();
export const useAppSelector = useSelector.withTypes<SharedState>();
