import { describe, expect, it, vi } from 'vitest';
import { paneLabel } from './terminal.svelte';
import { decodeBase64 } from './events';
import { Router } from './router.svelte';
import type { PaneInfo } from './api/terminal';

const pane = (over: Partial<PaneInfo>): PaneInfo => ({
  id: 'p-1', pid: 1, dir: '/home/me/shop-api', folder: 'shop-api', argv: ['/bin/bash'], foreground: '',
  title: '', cols: 80, rows: 24, exited: false, exitCode: 0, startedAt: 0, ...over,
});

describe('paneLabel', () => {
  it('names the folder and the program holding the terminal', () => {
    expect(paneLabel(pane({ foreground: 'claude' }))).toBe('shop-api · claude');
  });
  it('falls back to the command when the foreground is unknown', () => {
    expect(paneLabel(pane({}))).toBe('shop-api · bash');
  });
  it('says when the program exited', () => {
    expect(paneLabel(pane({ exited: true, exitCode: 3, foreground: 'claude' }))).toBe('shop-api · exited 3');
  });
});

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
