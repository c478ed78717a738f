// Writes the window's chrome, rendered by Svelte on the server, into
// dist/index.html's #app (npm run build runs it after the two vite builds).
// The page paints it once the HTML and its stylesheet are in, before its
// scripts have run: ~45 ms sooner than when main.ts drew it
// (build/scripts/bench-startup.sh). main.ts then hydrates it.
//
// It renders the production window: every screen's service bound (the
// desktop binary binds them all), no route in the address yet, the pane
// counts not yet read. What differs at run time (a link that opens another
// screen) is corrected when the page hydrates.
import { readFileSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'dist', 'index.html');
const ssr = join(root, '.ssr');

// Module code of the shell reads these at import time (the router its
// route, the sidebar which services are bound, shortcuts the platform).
const bound = new Proxy({}, { get: () => bound }); // every window.go.<pkg>.<Struct> is there
globalThis.window = { location: { hash: '' }, go: bound, addEventListener() {}, removeEventListener() {} };
globalThis.navigator ??= { platform: 'Linux', userAgent: '' };

try {
  const { renderShell } = await import(join(ssr, 'prerender.js'));
  const html = readFileSync(page, 'utf8');
  const empty = '<div id="app"></div>';
  if (!html.includes(empty)) throw new Error(`${page} has no empty ${empty} to fill`);
  const shell = renderShell();
  if (!shell.includes('data-route="/terminal"')) throw new Error('the rendered shell has no Terminal item in its sidebar');
  writeFileSync(page, html.replace(empty, () => `<div id="app">${shell}</div>`));
} catch (e) {
  console.error(`prerender: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
} finally {
  rmSync(ssr, { recursive: true, force: true });
}
