import { describe, expect, it, vi } from 'vitest';
import { decodeBase64 } from './events';
import { Router } from './router.svelte';
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
