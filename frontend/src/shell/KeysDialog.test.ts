import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The Connections dialog shows a tab bar only when there is more than one
// tab to pick: with one, the panel stands alone under its own name.
vi.mock('../lib/keytabs', () => {
  const view = { load: () => new Promise(() => {}), loaded: null };
  return {
    keyTabs: [
      { id: 'connected', label: 'Connected', view, available: () => !!(window as any).go?.connect },
      { id: 'external-ai', label: 'External AI', view, available: () => true },
    ],
  };
});

import { keys } from '../lib/keys.svelte';
import KeysDialog from './KeysDialog.svelte';

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (view) unmount(view);
  view = null;
  keys.open = false;
  delete (window as any).go;
  document.body.innerHTML = '';
});

function open() {
  view = mount(KeysDialog, { target: document.body });
  keys.show('');
  flushSync();
  return document.querySelector('[role="dialog"]')!;
}

describe('KeysDialog', () => {
  it('shows no tab bar for a single tab, and names the dialog after it', () => {
    const d = open();
    expect(d.querySelector('[role="tablist"]')).toBeNull();
    expect(d.querySelector('h2')!.textContent).toBe('External AI');
  });

  it('shows the tab bar when there are two tabs', () => {
    (window as any).go = { connect: {} };
    const d = open();
    expect([...d.querySelectorAll('[role="tab"]')].map((t) => t.textContent)).toEqual(['Connected', 'External AI']);
    expect(d.querySelector('h2')!.textContent).toBe('Connections');
  });
});
