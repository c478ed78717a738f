import { flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SignInApprove from './SignInApprove.svelte';

// The sign-in link works once, for 5 minutes: the panel must not keep
// offering it to copy after that.
describe('SignInApprove', () => {
  let target: HTMLElement;
  let cmp: ReturnType<typeof mount>;
  let links = 0;

  beforeEach(() => {
    vi.useFakeTimers();
    links = 0;
    window.go = { connect: { Panel: { SignInLink: async () => `http://127.0.0.1:8765/oauth/signin?token=t${++links}` } } };
    window.open = () => null; // no browser opens
    target = document.createElement('div');
    document.body.append(target);
    cmp = mount(SignInApprove, { target, props: { onerror: () => {} } });
  });
  afterEach(() => {
    unmount(cmp);
    target.remove();
    delete window.go;
    vi.useRealTimers();
  });

  async function press() {
    target.querySelector('button')!.click();
    for (let i = 0; i < 5; i++) await tick();
    flushSync();
  }

  it('shows the link to copy, then says when it has expired', async () => {
    await press();
    expect(target.querySelector('[data-signin-link]')?.textContent).toBe('http://127.0.0.1:8765/oauth/signin?token=t1');
    vi.advanceTimersByTime(4 * 60_000);
    flushSync();
    expect(target.querySelector('[data-signin-link]')).not.toBeNull();
    vi.advanceTimersByTime(61_000);
    flushSync();
    expect(target.querySelector('[data-signin-link]')).toBeNull();
    expect(target.textContent).toContain('The sign-in link has expired');
    await press();
    expect(target.querySelector('[data-signin-link]')?.textContent).toContain('token=t2');
    expect(target.textContent).not.toContain('expired');
  });
});
