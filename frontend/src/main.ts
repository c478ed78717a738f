import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { mainScreens } from './lib/screens';
import { Router } from './lib/router.svelte';
import { bound } from './lib/wails';
import { terminalApi } from './lib/api/terminal';
import { notices } from './lib/notices.svelte';

// The first frame is the app's own chrome (header and sidebar); the screen
// it opens on follows as soon as its chunk is in, whose fetch starts here,
// beside the mount (LazyView draws nothing meanwhile, and names a failed
// load). Waiting for that chunk to draw the screen in the same frame made
// the first frame late: page time to the first animation frame, median of
// 5 starts under load 5-7 on two cores, 1,407 ms waiting, 454 ms not.
const open = mainScreens.filter((s) => s.available());
const first = open.find((s) => s.path === Router.read()) ?? open[0];
first?.view.load().catch(() => {});
const app = Promise.resolve(mount(App, { target: document.getElementById('app')! }));

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
