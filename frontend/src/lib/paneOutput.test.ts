import { afterEach, describe, expect, it, vi } from 'vitest';
import { earlyLimit, feedPane, onPaneOutput, paneListeners } from './paneOutput';

// A fake Wails runtime: EventsOn records listeners, emit calls them.
function fakeRuntime(attach: (id: string) => Promise<{ data: string; seq: number; restored?: string }>, detached: string[] = []) {
  const listeners = new Map<string, Set<(d: any) => void>>();
  (window as any).runtime = {
    EventsOn(name: string, cb: (d: any) => void) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(cb);
      return () => listeners.get(name)!.delete(cb);
    },
  };
  (window as any).go = { terminal: { Service: { Attach: attach, Detach: async (id: string) => void detached.push(id) } } };
  return {
    count: (name: string) => listeners.get(name)?.size ?? 0,
    emit: (name: string, d: any) => listeners.get(name)?.forEach((cb) => cb(d)),
  };
}
const b64 = (s: string) => btoa(s);
const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join('');
const tick = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => {
  delete (window as any).runtime;
  delete (window as any).go;
});

describe('onPaneOutput', () => {
  it('shares one runtime listener and delivers each event only to its pane', () => {
    const rt = fakeRuntime(() => new Promise(() => {}));
    const got: Record<string, number[]> = {};
    const offs = ['a', 'b', 'c'].map((id) => onPaneOutput(id, (ev) => (got[id] ??= []).push(ev.seq)));
    expect(rt.count('pane:output')).toBe(1);
    rt.emit('pane:output', { id: 'b', seq: 7, data: '' });
    expect(got).toEqual({ b: [7] });
    offs.forEach((off) => off());
    expect(rt.count('pane:output')).toBe(0);
    expect(paneListeners()).toBe(0);
  });
});

describe('feedPane', () => {
  it('writes the replay, then only output newer than it, in order', async () => {
    let answer!: (a: { data: string; seq: number }) => void;
    const rt = fakeRuntime(() => new Promise((ok) => (answer = ok)));
    const out: Uint8Array[] = [];
    const stop = feedPane('p', (d) => out.push(d), () => {});
    rt.emit('pane:output', { id: 'p', seq: 1, data: b64('old ') });
    rt.emit('pane:output', { id: 'p', seq: 2, data: b64('new ') });
    answer({ data: b64('replay '), seq: 1 });
    await tick();
    rt.emit('pane:output', { id: 'p', seq: 3, data: b64('live') });
    expect(text(out)).toBe('replay new live');
    stop();
  });

  it("draws the last session's output first and scrolls it off the view's rows", async () => {
    fakeRuntime(async () => ({ data: b64('\x1b[2m-- restored --\x1b[22m\r\n$ '), seq: 4, restored: b64('old 1\r\nold 2\r\n$ ') }));
    const out: Uint8Array[] = [];
    const stop = feedPane('p', (d) => out.push(d), () => {}, () => 5);
    await tick();
    expect(text(out)).toBe('old 1\r\nold 2\r\n$ ' + '\x1b[0m\x1b7\x1b[r\x1b8' + '\r\n'.repeat(5) + '\x1b[H' + '\x1b[2m-- restored --\x1b[22m\r\n$ ');
    stop();
  });

  it('holds nothing and stops listening when attach fails, and says what to do', async () => {
    let fail!: (e: Error) => void;
    const rt = fakeRuntime(() => new Promise((_, no) => (fail = no)));
    const out: Uint8Array[] = [];
    const errors: string[] = [];
    feedPane('p', (d) => out.push(d), (m) => errors.push(m));
    rt.emit('pane:output', { id: 'p', seq: 1, data: b64('x') });
    fail(new Error('no pane p'));
    await tick();
    expect(errors).toEqual([expect.stringMatching(/no pane p.*Close the pane or restart osFoundry/)]);
    expect(rt.count('pane:output')).toBe(0);
    rt.emit('pane:output', { id: 'p', seq: 2, data: b64('y') });
    expect(out).toEqual([]);
  });

  it('keeps at most earlyLimit bytes while attach is pending', async () => {
    let answer!: (a: { data: string; seq: number }) => void;
    const rt = fakeRuntime(() => new Promise((ok) => (answer = ok)));
    const out: Uint8Array[] = [];
    const stop = feedPane('p', (d) => out.push(d), () => {});
    const chunk = b64('z'.repeat(64 * 1024));
    const n = (earlyLimit / (64 * 1024)) * 3;
    for (let seq = 1; seq <= n; seq++) rt.emit('pane:output', { id: 'p', seq, data: chunk });
    answer({ data: '', seq: 0 });
    await tick();
    const held = out.reduce((s, c) => s + c.length, 0);
    expect(held).toBeLessThanOrEqual(earlyLimit);
    expect(held).toBeGreaterThan(0);
    stop();
  });

  it('writes nothing when stopped before attach answers', async () => {
    let answer!: (a: { data: string; seq: number }) => void;
    const rt = fakeRuntime(() => new Promise((ok) => (answer = ok)));
    const out: Uint8Array[] = [];
    const stop = feedPane('p', (d) => out.push(d), () => {});
    stop();
    answer({ data: b64('late'), seq: 1 });
    await tick();
    expect(out).toEqual([]);
    expect(rt.count('pane:output')).toBe(0);
  });

  it('detaches once the view stops, so the pane stops sending output', async () => {
    const detached: string[] = [];
    fakeRuntime(async () => ({ data: b64('x'), seq: 1 }), detached);
    const stop = feedPane('p', () => {}, () => {});
    await tick();
    expect(detached).toEqual([]);
    stop();
    stop();
    expect(detached).toEqual(['p']);
  });

  it('detaches a view stopped before attach answers, once the attach counted it', async () => {
    let answer!: (a: { data: string; seq: number }) => void;
    const detached: string[] = [];
    fakeRuntime(() => new Promise((ok) => (answer = ok)), detached);
    const stop = feedPane('p', () => {}, () => {});
    stop();
    expect(detached).toEqual([]);
    answer({ data: b64('late'), seq: 1 });
    await tick();
    expect(detached).toEqual(['p']);
  });

  it('does not detach when the attach failed (nothing was counted)', async () => {
    const detached: string[] = [];
    fakeRuntime(() => Promise.reject(new Error('no such pane')), detached);
    const stop = feedPane('p', () => {}, () => {});
    await tick();
    stop();
    expect(detached).toEqual([]);
  });
});
