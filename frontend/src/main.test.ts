import { flushSync, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The first screen's chunk is still loading (here it never arrives): the
// app's chrome is drawn anyway, at once, and the screen's load has started.
const load = vi.fn(() => new Promise<never>(() => {}));
vi.mock('./lib/screens', () => ({
  mainScreens: [
    {
      path: '/terminal',
      group: 'main',
      label: 'Terminal',
      icon: 'M4 17l6-6-6-6M12 19h8',
      view: { load, loaded: undefined },
      available: () => true,
    },
  ],
}));

let app: Awaited<(typeof import('./main'))['default']> | undefined;
afterEach(() => {
  if (app) unmount(app);
  document.body.innerHTML = '';
});

describe('start-up', () => {
  it('mounts the app without waiting for the first screen', async () => {
    document.body.innerHTML = '<div id="app"></div>';
    const main = await import('./main');
    flushSync();
    expect(load).toHaveBeenCalled();
    expect(document.querySelector('#app .shell')).not.toBeNull();
    expect(document.querySelector('#app nav, #app aside')?.textContent).toContain('Terminal');
    app = await main.default;
  });
});
