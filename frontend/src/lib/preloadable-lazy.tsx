import {
  lazy,
  Suspense,
  useEffect,
  useMemo,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { useInViewOnce } from './use-in-view-once';

const preloaders: (() => Promise<unknown>)[] = [];

/**
 * `React.lazy` that can also be loaded ahead of rendering. The build-time
 * prerender (entry-server.tsx) preloads every such component, so it renders
 * pages without suspending; in the browser it behaves as React.lazy.
 */
export function preloadableLazy<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | undefined;
  const preload = async () => {
    loaded = await load();
    return loaded;
  };
  preloaders.push(preload);
  const LazyComponent = lazy(() => preload().then((component) => ({ default: component })));

  function PreloadableComponent(props: Props) {
    // Decided once per instance: switching from the lazy wrapper to the loaded
    // component later would remount the subtree and lose its state.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? LazyComponent);
    return <Component {...props} />;
  }
  return PreloadableComponent;
}

/** Loads every preloadable component (for the prerender). */
export async function preloadAllLazyComponents(): Promise<void> {
  await Promise.all(preloaders.map((preload) => preload()));
}

export interface OnViewOptions {
  /** Grows the viewport the place is watched against (see useInViewOnce). */
  rootMargin?: string;
  /** Holds the place when the browser builds the part itself (after a navigation). */
  fallback: ReactNode;
}

/**
 * A part below the fold whose code loads only as the visitor heads for it:
 * when its place comes into view (widened by `rootMargin`), or at once with
 * `eager` (an address pointing into it). The prerender renders it in full, so
 * its words are in the page from the start; the browser keeps that HTML as it
 * is until the part's code has arrived and then makes it live (hydrates it).
 */
export function lazyOnView(
  load: () => Promise<ComponentType>,
  { rootMargin, fallback }: OnViewOptions,
) {
  let loaded: ComponentType | undefined;
  const preload = async () => {
    loaded ??= await load();
    return loaded;
  };
  preloaders.push(preload);
  let release = () => {};
  const near = new Promise<void>((resolve) => {
    release = resolve;
  });
  // While it waits, a prerendered part stays as the server rendered it (a
  // dehydrated Suspense boundary); a part the browser builds shows `fallback`.
  const LazyComponent = lazy(async () => {
    await near;
    return { default: await preload() };
  });

  function OnViewComponent({ eager = false }: { eager?: boolean }) {
    const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin });
    const [Component] = useState<ComponentType>(() => loaded ?? LazyComponent);
    // The same element on every render: a dehydrated boundary that receives
    // new props before its code has arrived is thrown away and built afresh.
    const boundary = useMemo(
      () => (
        <Suspense fallback={fallback}>
          <Component />
        </Suspense>
      ),
      [Component],
    );
    useEffect(() => {
      if (inView || eager) release();
    }, [inView, eager]);
    return <div ref={ref}>{boundary}</div>;
  }
  return OnViewComponent;
}
