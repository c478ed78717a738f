// The one place that touches the Wails globals. Bound Go services live at
// window.go.<package>.<Struct>; the runtime at window.runtime.

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

/** call invokes a bound Go method, e.g. call('terminal', 'Service', 'List'). */
export function call<T>(pkg: string, struct: string, method: string, ...args: unknown[]): Promise<T> {
  const fn = window.go?.[pkg]?.[struct]?.[method];
  if (!fn) return Promise.reject(new Error(`The app backend is not connected (${pkg}.${struct}.${method}).`));
  return fn(...args) as Promise<T>;
}

/** bound reports whether a Go service is available (its screen is built). */
export function bound(pkg: string, struct: string): boolean {
  return !!window.go?.[pkg]?.[struct];
}

/** onEvent subscribes and returns the unsubscribe function (never EventsOff). */
export function onRuntimeEvent(name: string, cb: (data: any) => void): () => void {
  if (!window.runtime) return () => {};
  return window.runtime.EventsOn(name, cb);
}
