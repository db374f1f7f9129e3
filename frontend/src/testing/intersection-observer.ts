/**
 * jsdom has no IntersectionObserver. This stand-in records what is observed
 * and lets a test say when it scrolls into view.
 */
export class TestIntersectionObserver {
  static instances: TestIntersectionObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;

  constructor(private readonly callback: IntersectionObserverCallback) {
    TestIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.observed.add(element);
  }

  unobserve(element: Element) {
    this.observed.delete(element);
  }

  disconnect() {
    this.disconnected = true;
    this.observed.clear();
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  /** Every live observer reports its elements as entering the viewport. */
  static enterViewport() {
    for (const observer of TestIntersectionObserver.instances) {
      if (observer.disconnected) continue;
      const entries = [...observer.observed].map(
        (target) =>
          ({ target, isIntersecting: true, intersectionRatio: 1 }) as IntersectionObserverEntry,
      );
      if (entries.length > 0) {
        observer.callback(entries, observer as unknown as IntersectionObserver);
      }
    }
  }

  static install() {
    TestIntersectionObserver.instances = [];
    Object.defineProperty(window, 'IntersectionObserver', {
      value: TestIntersectionObserver,
      configurable: true,
      writable: true,
    });
  }

  static uninstall() {
    Reflect.deleteProperty(window, 'IntersectionObserver');
    TestIntersectionObserver.instances = [];
  }
}
