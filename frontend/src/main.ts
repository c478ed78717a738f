import { hydrate, mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { mainScreens } from './lib/screens';
import { Router } from './lib/router.svelte';
import { bound } from './lib/wails';
import { terminalApi } from './lib/api/terminal';
import { shownApi } from './lib/api/shown';
import { notices } from './lib/notices.svelte';

// The first frame is the app's own chrome (header and sidebar), rendered
// into index.html at build time (prerender.ts) and painted before this
// script has run; the screen it opens on follows as soon as its chunk is
// in, whose fetch starts here (LazyView draws nothing meanwhile, and names
// a failed load). Drawing the chrome from this script made the first frame
// 1.24–1.41× the bare window's (build/scripts/bench-startup.sh); with it in
// the page, the font stack trimmed and the background work after it,
// 1.08–1.16× in two runs of 5 pairs.
const open = mainScreens.filter((s) => s.available());
const first = open.find((s) => s.path === Router.read()) ?? open[0];
first?.view.load().catch(() => {});
// The dev server's page has no prerendered chrome: it is built here.
const target = document.getElementById('app')!;
const app = Promise.resolve(target.firstChild ? hydrate(App, { target }) : mount(App, { target }));

// The last session's panes and the app's background work start 400 ms
// after the hydrated page's first animation frame, so the screen it opens
// on draws first: four shells starting beside the web view made its first
// frames ~0.4 s later on two cores. A pane that could not come back (its
// folder is gone, …) is named in a notice.
app.then(() =>
  requestAnimationFrame(() =>
    setTimeout(() => {
      shownApi.firstFrame().catch(() => {}); // unbound or failed: the app's own timer starts it
      if (!bound('terminal', 'Service')) return;
      terminalApi.restoreSaved().catch((e) => notices.show(e instanceof Error ? e.message : String(e), 'Some panes were not restored'));
    }, 400),
  ),
);

export default app;
