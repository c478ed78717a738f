import type { Component } from 'svelte';

// Screens and dialog tabs are loaded on first use (dynamic import), so the
// first frame only waits for the shell: the start-up bundle stays small and
// xterm.js and the other screens are parsed when they are needed.

export type Loader = () => Promise<{ default: Component<any> }>;

export interface Lazy {
  /** load imports the module once; later calls return the same promise. */
  load(): Promise<Component<any>>;
  /** loaded is the component once its module is in, else undefined. */
  readonly loaded: Component<any> | undefined;
}

/** lazy wraps an import() so it runs at most once (a failed load can retry). */
export function lazy(loader: Loader): Lazy {
  let p: Promise<Component<any>> | undefined;
  let done: Component<any> | undefined;
  return {
    load() {
      p ??= loader().then(
        (m) => (done = m.default),
        (e) => {
          p = undefined; // a later visit tries again
          throw e;
        },
      );
      return p;
    },
    get loaded() {
      return done;
    },
  };
}
