import { describe, expect, it, vi } from 'vitest';
import { decodeBase64 } from './events';
import { Router } from './router.svelte';
import { pickBase, rememberBase } from './terminal.svelte';
describe('decodeBase64', () => {
  it('keeps bytes that are not valid UTF-8', () => {
    expect(Array.from(decodeBase64(btoa('a\xff\xfe')))).toEqual([0x61, 0xff, 0xfe]);
  });
  it('treats a missing payload as empty', () => {
    expect(decodeBase64(undefined as unknown as string).length).toBe(0);
  });
});

describe('Router', () => {
  it('reads the route and query from the hash', () => {
    window.location.hash = '#/terminal?pane=p-9';
    expect(Router.read()).toBe('/terminal');
    expect(Router.query().get('pane')).toBe('p-9');
  });
  it('go updates the hash and the current path', () => {
    const r = new Router();
    const stop = r.start();
    r.go('/sessions');
    expect(window.location.hash).toBe('#/sessions');
    expect(r.path).toBe('/sessions');
    stop();
  });
});

describe('call without a backend', () => {
  it('rejects with a message that says the backend is missing', async () => {
    const { call } = await import('./wails');
    vi.stubGlobal('go', undefined);
    await expect(call('terminal', 'Service', 'List')).rejects.toThrow(/backend is not connected/);
  });
});

describe('TerminalState.refresh', () => {
  it('keeps a new pane selected when a list asked before it answers late', async () => {
    const lists: Array<(v: unknown) => void> = [];
    const pane = (id: string) => ({ id, dir: '/w', folder: 'w', argv: [], exited: false });
    vi.stubGlobal('go', {
      terminal: {
        Service: {
          Restoring: () => Promise.resolve(0),
          List: () => new Promise((r) => lists.push(r)),
          Create: () => Promise.resolve(pane('p-new')),
          Folders: () => Promise.resolve([]),
        },
      },
    });
    const { TerminalState } = await import('./terminal.svelte');
    const t = new TerminalState();
    const first = t.refresh(); // the first list: it waits for the restore
    await vi.waitFor(() => expect(lists.length).toBe(1));
    const created = t.create('/w', 'bash');
    await vi.waitFor(() => expect(lists.length).toBe(2));
    lists[1]([pane('p-old'), pane('p-new')]);
    await created;
    lists[0]([pane('p-old')]); // the late answer, from before the pane existed
    await first;
    expect(t.selected).toBe('p-new');
    expect(t.panes.map((p) => p.id)).toEqual(['p-old', 'p-new']);
    vi.unstubAllGlobals();
  });
});

describe('the New pane form remembers the base per repository', () => {
  it('starts from the remembered base while it exists, else the current branch', () => {
    localStorage.clear();
    expect(pickBase('/r', ['main', 'dev'], 'main')).toBe('main');
    rememberBase('/r', 'dev');
    expect(pickBase('/r', ['main', 'dev'], 'main')).toBe('dev');
    expect(pickBase('/other', ['main', 'dev'], 'main')).toBe('main');
    expect(pickBase('/r', ['main'], 'main')).toBe('main');
    expect(pickBase('/r', ['trunk'], '')).toBe('trunk');
  });
});
