import '@testing-library/jest-dom';
import { i18n } from '../app/i18n';
import { server } from './msw-server';

/**
 * jest-fixed-jsdom hands jsdom Node's own fetch classes, and Node's Request
 * rejects relative URLs a browser resolves against the page. The app always
 * calls the relative `/api`, so resolve it the way a browser would.
 */
const NodeRequest = globalThis.Request;
class DocumentRelativeRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, document.baseURI) : input, init);
  }
}
globalThis.Request = DocumentRelativeRequest;

// jsdom does not implement scrolling and logs an error for every call.
window.scrollTo = jest.fn() as typeof window.scrollTo;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(async () => {
  window.localStorage.clear();
  await i18n.changeLanguage('en');
});

afterEach(() => server.resetHandlers());

afterAll(() => server.close());
