/**
 * The app's i18next instance, for tests that switch the page language or
 * read it back. Features may not import app/; the test harness may.
 */
export { i18n } from '../app/i18n';
