import { type ComponentType, lazy, useState } from 'react';

export interface LazyPage {
  /** The page; renders at once when its code was preloaded, else suspends while it loads. */
  Page: ComponentType;
  /** Loads the page's code; the first render waits for it, so no fallback replaces the page. */
  preload: () => Promise<unknown>;
}

/** A route's own chunk (performance.md: every route split) that can be fetched before it renders. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  function Page() {
    // Chosen once per mount: switching from the lazy wrapper to the module would remount the page.
    const [Component] = useState(() => loaded ?? Lazy);
    return <Component />;
  }
  return { Page, preload };
}
