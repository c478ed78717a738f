// The server-side render of the window's chrome, written into
// dist/index.html at build time (scripts/prerender.mjs): the first frame is
// the header and sidebar, drawn from the HTML before any script has run,
// and main.ts hydrates that markup instead of building it again.
import { render } from 'svelte/server';
import App from './App.svelte';

export function renderShell(): string {
  return render(App).body;
}
