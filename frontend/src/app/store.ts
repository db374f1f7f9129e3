import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api } from '../lib/api';
import { preferencesSlice } from './preferences-slice';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [preferencesSlice.name]: preferencesSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/** A factory rather than a singleton so each test gets an isolated cache. */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
