import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/router';
import { makeStore, type AppStore } from '../app/store';

export interface RenderOptions {
  /** The address the memory router starts at. */
  path?: string;
  store?: AppStore;
}

export interface ProvidersRenderResult extends RenderResult {
  store: AppStore;
  user: UserEvent;
}

/** Renders one component inside the app's providers and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', store = makeStore() }: RenderOptions = {},
): ProvidersRenderResult {
  // No artificial delay between keystrokes: the suites type whole forms.
  const user = userEvent.setup({ delay: null });
  const result = render(
    <AppProviders store={store}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
  return { ...result, store, user };
}

/** Renders the whole app (every route of app/router.tsx) at `path`. */
export function renderApp(path = '/', { store = makeStore() }: Omit<RenderOptions, 'path'> = {}) {
  // No artificial delay between keystrokes: the suites type whole forms.
  const user = userEvent.setup({ delay: null });
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const result = render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, store, user, router };
}
