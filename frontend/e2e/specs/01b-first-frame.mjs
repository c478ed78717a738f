import { assert } from '../lib.mjs';

// The window's first frame is its chrome, rendered into index.html at build
// time (src/prerender.ts) and drawn before any script runs; the app then
// hydrates that markup. Checks:
//  1. the page as served holds the chrome (the sidebar's Terminal item);
//  2. the app keeps those very elements (a markup that no longer matches
//     what App renders would be thrown away and built again: the first
//     frame would flash and cost twice);
//  3. opened on another screen, hydration moves the current mark there,
//     and the prerendered items work: a click opens Sessions.
export default async function ({ page, base, shot }) {
  const html = await (await fetch(base + '/')).text();
  assert(html.includes('data-route="/terminal"'), 'index.html should hold the prerendered sidebar (npm run build runs scripts/prerender.mjs)');

  // The first sidebar the HTML parser inserts, before any script of the app.
  await page.addInitScript(() => {
    new MutationObserver((records, obs) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof Element && (n.matches('nav.sidebar') || n.querySelector('nav.sidebar'))) {
            window.__firstSidebar = n.matches('nav.sidebar') ? n : n.querySelector('nav.sidebar');
            obs.disconnect();
            return;
          }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(base + '/#/usage');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await page.locator('[data-route="/usage"][aria-current=page]').waitFor();
  await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
  const kept = await page.evaluate(() => !!window.__firstSidebar?.isConnected && document.querySelectorAll('nav.sidebar').length === 1);
  assert(kept, 'the app should hydrate the prerendered sidebar, not build a new one (its markup no longer matches App: see src/prerender.ts)');
  assert((await page.locator('[data-route="/terminal"][aria-current=page]').count()) === 0, 'Terminal, current in the prerendered page, should not stay marked current on Usage');
  await shot('first-frame-hydrated');
  await nav.getByRole('button', { name: 'Sessions', exact: true }).click();
  await page.locator('[data-route="/sessions"][aria-current=page]').waitFor();
}
