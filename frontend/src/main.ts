import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { mainScreens } from './lib/screens';
import { Router } from './lib/router.svelte';

// The first frame should show the screen the app opens on, not an empty
// shell: fetch that screen's chunk first (tens of ms from the app's own
// files), then mount. A slow or failed load does not hold the window back.
const open = mainScreens.filter((s) => s.available());
const first = open.find((s) => s.path === Router.read()) ?? open[0];
const ready = first ? first.view.load().catch(() => {}) : Promise.resolve();
const app = Promise.race([ready, new Promise((r) => setTimeout(r, 300))]).then(() => mount(App, { target: document.getElementById('app')! }));

export default app;
