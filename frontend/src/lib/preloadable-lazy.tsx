import { lazy, useState, type ComponentType } from 'react';

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
