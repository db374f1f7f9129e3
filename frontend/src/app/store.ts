import {
  combineSlices,
  configureStore,
  createAction,
  createDynamicMiddleware,
} from '@reduxjs/toolkit';
import type { api } from '../lib/api';
import { preferencesSlice } from '../lib/preferences-slice';

/**
 * The RTK Query slice joins the store when the first page that talks to the
 * API loads (app/api-boundary.tsx): pages that only show content never
 * download RTK Query.
 */
export interface LazyLoadedSlices {
  api: ReturnType<(typeof api)['reducer']>;
}

export const rootReducer = combineSlices(preferencesSlice).withLazyLoadedSlices<LazyLoadedSlices>();

/** Where the API's middleware is added on demand; shared by every store. */
export const dynamicMiddleware = createDynamicMiddleware();

/** Dispatched once the API is injected, so an existing store builds the API's initial state. */
export const apiConnected = createAction('app/apiConnected');

export type RootState = ReturnType<typeof rootReducer>;

/** A factory rather than a singleton so each test gets an isolated cache. */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().concat(dynamicMiddleware.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
