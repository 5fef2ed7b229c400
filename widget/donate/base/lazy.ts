import { signal, type ReadonlySignal } from "@preact/signals-core";
import { h, type ComponentType } from "preact";
import { reactive } from "../../shared/reactive";

/** A module that comes in a chunk of its own: fetched once (`preload`), there once it has come (`loaded`). */
export interface LazyModule<M> {
  /** Fetches the module, once; a failed fetch is tried again at the next call. */
  preload(): Promise<M>;
  loaded: ReadonlySignal<M | null>;
}

/** A chunk of the form's own, fetched when first asked for (lazyModule(() => import("./later"))). */
export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  const loaded = signal<M | null>(null);
  let loading: Promise<M> | null = null;
  return {
    loaded,
    preload: () =>
      (loading ??= load().then(
        (module) => (loaded.value = module),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
  };
}

/**
 * The component `name` of a module that comes in a chunk of its own, as preact-iso's `lazy()`
 * but without Suspense: nothing until the module has come, then the component. Fetched at its
 * first render, unless the form preloaded its chunk as it opened (load-later.ts), as it does:
 * then each part shows at once when its step does.
 *
 * @example
 * const DonorFields = lazy(rest, "DonorFields");   // rest = lazyModule(() => import("./later"))
 */
export function lazy<M, K extends keyof M>(module: LazyModule<M>, name: K): M[K] {
  return reactive((props: object) => {
    module.preload().catch(() => undefined);
    const loaded = module.loaded.value;
    return loaded && h(loaded[name] as ComponentType, props);
  }) as M[K];
}
