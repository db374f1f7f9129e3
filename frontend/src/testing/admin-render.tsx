import type { Role } from '@agency/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { signInAs } from './admin-session';
import { mockViewportWidth } from './media-query';
import { renderApp, UNSTYLED, type ProvidersRenderResult } from './render';

/** Sections load their chunk, texts and first answers: generous on a busy machine. */
export const SECTION_LOAD = { timeout: 5_000 };

/**
 * An admin list of cards (the phone's form) once its records are in: while
 * the first page loads, the list is already there, empty.
 */
export async function findCardList(name: string): Promise<HTMLElement> {
  const list = await screen.findByRole('list', { name }, SECTION_LOAD);
  await within(list).findAllByRole('listitem', {}, SECTION_LOAD);
  return list;
}

export interface AdminRenderOptions {
  role?: Role;
  /** A phone-sized window (375 px) instead of a desktop one. */
  mobile?: boolean;
}

/** The whole app at an admin address, signed out, without stylesheets. */
export function renderAdminSignedOut(path: string): Promise<ProvidersRenderResult> {
  return renderApp(path, UNSTYLED);
}

let restoreViewport: (() => void) | undefined;
afterEach(() => {
  restoreViewport?.();
  restoreViewport = undefined;
});

/**
 * Signs in as `role`, then renders the whole app at an admin address, its h1
 * shown. Without stylesheets: see unstyledCache in testing/render.tsx.
 */
export async function renderAdmin(
  path: string,
  { role = 'admin', mobile = false }: AdminRenderOptions = {},
): Promise<ProvidersRenderResult> {
  signInAs(role);
  restoreViewport = mockViewportWidth(mobile ? 375 : 1280);
  const result = await renderApp(path, UNSTYLED);
  // A plain query: role queries walk the accessibility tree, slow on a page this size.
  await waitFor(() => {
    if (!document.querySelector('main h1')) throw new Error('the section has not rendered yet');
  }, SECTION_LOAD);
  return result;
}

/** The first element matching a CSS selector, once it exists (cheaper than a role query). */
export function findElement<T extends Element = HTMLElement>(selector: string): Promise<T> {
  return waitFor(() => {
    const element = document.querySelector<T>(selector);
    if (!element) throw new Error(`nothing matches ${selector} yet`);
    return element;
  }, SECTION_LOAD);
}

/** The admin table labelled `label`. */
export function findTable(label: string): Promise<HTMLElement> {
  return findElement<HTMLElement>(`[role="grid"][aria-label="${label}"]`);
}

/**
 * The records labelled `label` once their first page is in, in the form the
 * width gives them: a table on a desktop, a list of cards on a phone. Waits on
 * what the screen shows (nothing in it loading), not on a clock.
 */
export function findLoadedRecords(label: string): Promise<HTMLElement> {
  return waitFor(() => {
    const records = document.querySelector<HTMLElement>(
      `[role="grid"][aria-label="${label}"], ul[aria-label="${label}"]`,
    );
    if (!records) throw new Error(`no records labelled ${label} yet`);
    const loading = document.querySelector(
      'main [aria-busy="true"], main [role="progressbar"]:not([aria-valuenow])',
    );
    if (loading) throw new Error(`${label}: the first page is still loading`);
    return records;
  }, SECTION_LOAD);
}
