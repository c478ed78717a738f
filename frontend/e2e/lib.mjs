// Helpers shared by the end-to-end specs and runners.
import net from 'node:net';

/** freePort asks the OS for a free loopback port. */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** waitHTTP waits until url answers 200, or fails after ms. */
export async function waitHTTP(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the app did not serve ${url} within ${ms / 1000}s`);
}

/** patience stretches every wait: a deadline only says when to give up on
 * something that is not coming, and on a loaded machine (CI's 2 cores, other
 * work beside the suite) a real agent CLI can take several times longer to
 * start than on a quiet one. Passing waits return as soon as their
 * condition holds, so this costs nothing when things work.
 * OSF_E2E_PATIENCE=1 restores the written deadlines. */
export const patience = Number(process.env.OSF_E2E_PATIENCE) > 0 ? Number(process.env.OSF_E2E_PATIENCE) : 4;

export async function until(what, fn, ms = 15000) {
  const end = Date.now() + ms * patience;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (${(ms * patience) / 1000} s)`);
}

export function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

/** xtermText reads the visible rows of a pane's xterm.js screen. */
export function xtermText(page, paneId) {
  return page.evaluate((id) => {
    const host = document.querySelector(`[data-pane-view="${id}"]`);
    const t = host?.__xterm;
    if (!t) return '';
    const buf = t.buffer.active;
    const rows = [];
    for (let y = 0; y < buf.length; y++) rows.push(buf.getLine(y)?.translateToString(true) ?? '');
    return rows.join('\n');
  }, paneId);
}

/** goCall calls a bound Go method from the page. */
export function goCall(page, path, ...args) {
  return page.evaluate(
    ([p, a]) => {
      const [pkg, st, m] = p.split('.');
      return window.go[pkg][st][m](...a);
    },
    [path, args],
  );
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** openNewPaneForm shows the Terminal's New pane form and returns it. The
 * screen shows the form by itself while it has no panes, and hides it once
 * the panes of earlier specs have loaded: a single look-then-click could
 * see the form just before it went away. */
export async function openNewPaneForm(page) {
  const form = page.getByRole('form', { name: 'New pane' });
  await until('the New pane form', async () => {
    if (await form.isVisible()) return true;
    await page.getByRole('button', { name: '+ New pane' }).click({ timeout: 2000 }).catch(() => {});
    return false;
  });
  return form;
}

/** devBridgeGuard is an init script (page or context addInitScript) for
 * pages of the dev build. Wails' browser bridge (ipc_websocket.js, used only
 * when a browser drives the dev build) closes its websocket at beforeunload
 * but keeps its sender, so a call a timer makes between a reload's
 * beforeunload and the unload throws "Cannot read properties of null
 * (reading 'send')". A page that is going away drops such calls, as a closed
 * desktop window does; a call failing at any other time still shows. */
export function devBridgeGuard() {
  let leaving = false;
  addEventListener('beforeunload', () => (leaving = true));
  addEventListener('pageshow', () => (leaving = false));
  let invoke;
  Object.defineProperty(window, 'WailsInvoke', {
    configurable: true,
    get: () => invoke && ((m) => leaving || invoke(m)),
    set: (f) => (invoke = f),
  });
}
