import { afterEach, describe, expect, it } from 'vitest';
import { terminalLook } from './terminalLook.svelte';
import { defaults } from './terminalPrefs';

// A fake Wails runtime: EventsOn records listeners, emit calls them.
function fakeRuntime() {
  const listeners = new Map<string, Set<(d: any) => void>>();
  (window as any).runtime = {
    EventsOn(name: string, cb: (d: any) => void) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(cb);
      return () => listeners.get(name)!.delete(cb);
    },
  };
  return {
    count: (name: string) => listeners.get(name)?.size ?? 0,
    emit: (name: string, d: any) => listeners.get(name)?.forEach((cb) => cb(d)),
  };
}

afterEach(() => {
  delete (window as any).runtime;
});

describe('terminalLook.follow', () => {
  it('takes every saved change while some pane follows, with one listener', () => {
    const rt = fakeRuntime();
    const a = terminalLook.follow();
    const b = terminalLook.follow();
    expect(rt.count('settings:terminal')).toBe(1);
    rt.emit('settings:terminal', { ...defaults, fontSize: 21, cursorStyle: 'underline' });
    expect(terminalLook.options.fontSize).toBe(21);
    expect(terminalLook.options.cursorStyle).toBe('underline');
    a();
    a(); // a second stop does nothing
    expect(rt.count('settings:terminal')).toBe(1);
    b();
    expect(rt.count('settings:terminal')).toBe(0);
    rt.emit('settings:terminal', { ...defaults, fontSize: 9 });
    expect(terminalLook.options.fontSize).toBe(21);
  });
});
