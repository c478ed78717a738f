// Browser end-to-end runner: starts the dev-tag build of the app (real Go
// backend, built frontend) on loopback under Xvfb, then drives Debian's
// Chromium with playwright-core through every spec in e2e/specs.
//   node e2e/run.mjs PATH/TO/osfoundry-dev [spec-name-filter]
//   (OSF_E2E_DIST=folder serves a frontend built with vite build --outDir folder)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { freePort, waitHTTP, patience, devBridgeGuard } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');
const filter = process.argv[3] ?? '';
// OSF_E2E_DIST: a built frontend elsewhere than dist/ (two builds side by side).
const dist = resolve(process.env.OSF_E2E_DIST ?? resolve(here, '../dist'));



const tmp = mkdtempSync(join(tmpdir(), 'osf-e2e-'));
const home = join(tmp, 'home');
mkdirSync(home);
// Seed modules prepare the app's HOME (agent session stores, …) before it
// starts; one may return { env } to add to the app's environment.
const seedDir = join(here, 'seed');
const seedEnv = {};
for (const f of existsSync(seedDir) ? readdirSync(seedDir).filter((f) => f.endsWith('.mjs')).sort() : []) {
  const seed = await import(pathToFileURL(join(seedDir, f)).href);
  Object.assign(seedEnv, (await seed.default({ home, tmp }))?.env);
}
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
// OSF_FROM_TERMINAL: the PATH given here (with the seeded CLIs) is the one to use; the app
// must not put the login shell's PATH in front of it.
const env = { ...process.env, ...seedEnv, OSFOUNDRY_HOME: join(tmp, 'data'), HOME: home, SHELL: '/bin/bash', WEBKIT_DISABLE_DMABUF_RENDERER: '1', OSF_FROM_TERMINAL: '1' };
const app = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x820x24', bin, '-devserver', `127.0.0.1:${port}`, '-assetdir', dist], {
  env,
  detached: true,
  stdio: ['ignore', 'ignore', 'pipe'],
});
let appLog = '';
app.stderr.on('data', (d) => (appLog += d));

// Answers a spec pushed to the fake model and no request took (a check
// cancelled before it asked) would answer the next spec's requests.
async function resetFakeModel() {
  const seedFile = join(tmp, 'pipeline-seed.json');
  if (!existsSync(seedFile)) return;
  const { url } = JSON.parse(readFileSync(seedFile, 'utf8'));
  if (url) await fetch(url + '/_testkit/reset', { method: 'POST' });
}

// stopGroup ends the app's process group (xvfb-run, Xvfb, the app and
// its children): SIGTERM, then SIGKILL only for what is left after 10 s.
// Killing Xvfb at once leaves its display's lock file behind.
async function stopGroup(pid) {
  // signal reports whether the group still had a process to take it.
  const signal = (sig) => {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false;
    }
  };
  if (!signal('SIGTERM')) return;
  for (let end = Date.now() + 10000; signal(0) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
  signal('SIGKILL');
}

let failed = 0;
let browser;
try {
  await waitHTTP(base + '/', 60000);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const specs = readdirSync(join(here, 'specs')).filter((f) => f.endsWith('.mjs') && f.includes(filter)).sort();
  for (const f of specs) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(devBridgeGuard);
    // Playwright's own waits (locator actions, waitFor) stretch like until().
    page.setDefaultTimeout(30000 * patience);
    const errors = [];
    page.on('pageerror', (e) => {
      // Wails' browser bridge (ipc_websocket.js, used only when a browser
      // drives the dev build) hands an event to window.wails.EventsNotify as
      // soon as its websocket opens, and on a loaded machine that can be
      // before its runtime.js has defined window.wails. The desktop window
      // injects the runtime before any page script; the app is not involved.
      if (e.message === "Cannot read properties of undefined (reading 'EventsNotify')") return;
      errors.push(e.message);
    });
    const t0 = Date.now();
    const logFrom = appLog.length;
    try {
      await resetFakeModel();
      const spec = await import(pathToFileURL(join(here, 'specs', f)).href);
      await spec.default({ page, base, home, tmp, env, bin, dist, shot: (name) => page.screenshot({ path: join(here, '..', 'test-results', name + '.png') }) });
      if (errors.length) throw new Error('page errors: ' + errors.join('; '));
      console.log(`ok   ${f} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${f}: ${e.stack ?? e}`);
      // What the app logged while the spec ran: the cause is often there.
      const log = appLog.slice(logFrom);
      if (log) console.log(`     the app's log during ${f}${log.length > 4000 ? ' (its end)' : ''}:\n${log.slice(-4000)}`);
      await page.screenshot({ path: join(here, '..', 'test-results', f + '.failure.png') }).catch(() => {});
    }
    await page.close();
  }
} catch (e) {
  failed++;
  console.log('FAIL e2e setup:', e.message, '\n', appLog.slice(-2000));
} finally {
  await browser?.close();
  await stopGroup(app.pid);
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
