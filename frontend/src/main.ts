import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { mainScreens } from './lib/screens';
import { Router } from './lib/router.svelte';
import { bound } from './lib/wails';
import { terminalApi } from './lib/api/terminal';
import { notices } from './lib/notices.svelte';

// The first frame should show the screen the app opens on, not an empty
// shell: fetch that screen's chunk first (tens of ms from the app's own
// files), then mount. A slow or failed load does not hold the window back.
const open = mainScreens.filter((s) => s.available());
const first = open.find((s) => s.path === Router.read()) ?? open[0];
const ready = first ? first.view.load().catch(() => {}) : Promise.resolve();
const app = Promise.race([ready, new Promise((r) => setTimeout(r, 300))]).then(() => mount(App, { target: document.getElementById('app')! }));

// The last session's panes start once the first frame is on screen: four
// shells starting beside it made it ~0.4 s later on two cores. The frame
// reaches the screen ~150 ms after its animation frame, hence the wait. A
// pane that could not come back (its folder is gone, …) is named in a notice.
app.then(() =>
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (!bound('terminal', 'Service')) return;
      terminalApi.restoreSaved().catch((e) => notices.show(e instanceof Error ? e.message : String(e), 'Some panes were not restored'));
    }, 400),
  ),
);

export default app;
