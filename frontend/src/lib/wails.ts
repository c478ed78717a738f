// The one place that touches the Wails globals. Bound Go services live at
// window.go.<package>.<Struct>; the runtime at window.runtime.

import type { Bound } from './wailsjs/go/bound';

type AnyFn = (...args: any[]) => Promise<any>;

declare global {
  interface Window {
    go?: Record<string, Record<string, Record<string, AnyFn>>>;
    runtime?: {
      EventsOn(name: string, cb: (...data: any[]) => void): () => void;
      BrowserOpenURL(url: string): void;
      ClipboardSetText(text: string): Promise<boolean>;
    };
  }
}

type Fn = (...args: any[]) => Promise<unknown>;
type Methods<P extends keyof Bound, S extends keyof Bound[P]> = {
  [M in keyof Bound[P][S] as Bound[P][S][M] extends Fn ? M : never]: Bound[P][S][M];
};

/** Method is a bound Go method's generated signature (wailsjs/go/<pkg>/<Struct>.d.ts). */
export type Method<P extends keyof Bound, S extends keyof Bound[P], M extends keyof Methods<P, S>> =
  Methods<P, S>[M] extends Fn ? Methods<P, S>[M] : never;

/**
 * call invokes a bound Go method, e.g. call('terminal', 'Service', 'List').
 * Names, arguments and the result are those `make bindings` generated from
 * the Go code, so a renamed method or a changed type fails svelte-check;
 * the call itself still goes through window.go, so a screen whose service
 * is not built gets a rejected promise, not a thrown TypeError.
 */
export function call<P extends keyof Bound, S extends keyof Bound[P] & string, M extends keyof Methods<P, S> & string>(
  pkg: P,
  struct: S,
  method: M,
  ...args: Parameters<Method<P, S, M>>
): ReturnType<Method<P, S, M>> {
  const fn = window.go?.[pkg]?.[struct]?.[method];
  if (!fn) return Promise.reject(new Error(`The app backend is not connected (${pkg}.${struct}.${method}).`)) as ReturnType<Method<P, S, M>>;
  return fn(...args) as ReturnType<Method<P, S, M>>;
}

/** service is call for one bound struct: service('board', 'Service')('Cards'). */
export function service<P extends keyof Bound, S extends keyof Bound[P] & string>(pkg: P, struct: S) {
  return <M extends keyof Methods<P, S> & string>(method: M, ...args: Parameters<Method<P, S, M>>) =>
    call(pkg, struct, method, ...args);
}

/**
 * Narrow is a generated type with some fields narrowed to what the Go code
 * guarantees but cannot say in its types (a string that is one of a few
 * states, a slice Go sends as null when empty). Every narrowed field must exist in the generated type with a
 * type it fits, so a field renamed or retyped in Go still fails the check.
 */
export type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? T[K] | null : never }> = Omit<T, keyof N> & N;

/** bound reports whether a Go service is available (its screen is built). */
export function bound(pkg: string, struct: string): boolean {
  return !!window.go?.[pkg]?.[struct];
}

/** onEvent subscribes and returns the unsubscribe function (never EventsOff). */
export function onRuntimeEvent(name: string, cb: (data: any) => void): () => void {
  if (!window.runtime) return () => {};
  return window.runtime.EventsOn(name, cb);
}

/** Optional is a generated type whose fields K a screen may leave out (Go reads them as zero). */
export type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
