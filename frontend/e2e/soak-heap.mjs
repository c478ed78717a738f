// Heap soak of the Terminal screen in Chromium: starts the dev-tag build of
// the app on loopback (as e2e/run.mjs does), opens N panes running 10 Hz
// spinners, shows each once (every pane gets its xterm.js view, most of
// them then off screen), and for M minutes samples the JavaScript heap
// after a forced GC. Two heap snapshots (after the warm-up and at the end)
// are compared by constructor: what grows is named with its count and size.
//   node e2e/soak-heap.mjs PATH/TO/osfoundry-dev [--panes 12] [--minutes 3] [--every 15]
//   (OSF_E2E_DIST=folder serves a frontend built with vite build --outDir folder)
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { freePort, goCall, until, waitHTTP } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const bin = resolve(argv[0] ?? '../build/bin/osfoundry-dev');
const opt = (name, def) => {
  const i = argv.indexOf('--' + name);
  const v = i < 0 ? def : Number(argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} wants a positive number, got ${argv[i + 1]}`);
  return v;
};
const panes = opt('panes', 12);
const minutes = opt('minutes', 3);
const every = opt('every', 15);
const dist = resolve(process.env.OSF_E2E_DIST ?? resolve(here, '../dist'));



/** snapshot takes a heap snapshot and sums self size and count per constructor. */
async function snapshot(cdp) {
  let chunks = [];
  const onChunk = (e) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const snap = JSON.parse(chunks.join(''));
  chunks = null;
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [ti, ni, si] = [f.indexOf('type'), f.indexOf('name'), f.indexOf('self_size')];
  const by = new Map();
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    const type = types[snap.nodes[i + ti]];
    let name = snap.strings[snap.nodes[i + ni]];
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(string)';
    else if (type === 'code') name = '(code)';
    else if (type !== 'object' && type !== 'closure') name = `(${type}) ${name}`.slice(0, 60);
    const key = type === 'closure' ? `closure ${name}`.slice(0, 60) : name.slice(0, 60);
    const e = by.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += snap.nodes[i + si];
    by.set(key, e);
  }
  return by;
}

const tmp = mkdtempSync(join(tmpdir(), 'osf-heap-'));
const home = join(tmp, 'home');
mkdirSync(home);
const spin = join(tmp, 'spin.sh');
writeFileSync(spin, `i=0; s='|/-\\'\nwhile :; do printf '\\r%s working… %d' "\${s:i%4:1}" "$i"; i=$((i+1)); sleep 0.1; done\n`);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, OSFOUNDRY_HOME: join(tmp, 'data'), HOME: home, SHELL: '/bin/bash', WEBKIT_DISABLE_DMABUF_RENDERER: '1', OSF_FROM_TERMINAL: '1' };
const app = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x820x24', bin, '-devserver', `127.0.0.1:${port}`, '-assetdir', dist], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
let appLog = '';
app.stderr.on('data', (d) => (appLog += d));
let browser;
let code = 0;
try {
  await waitHTTP(base + '/', 60000);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const ids = [];
  for (let i = 0; i < panes; i++) ids.push((await goCall(page, 'terminal.Service.Create', { dir: tmp, command: `bash --norc --noprofile ${spin}`, cols: 120, rows: 32 })).id);
  for (const id of ids) {
    await until(`pane ${id} on the rail`, () => page.locator(`[data-pane="${id}"]`).count());
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"]`);
  }
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    const dom = await page.evaluate(() => ({ xterm: document.querySelectorAll('.xterm').length, nodes: document.getElementsByTagName('*').length }));
    return { mib: usedSize / 2 ** 20, ...dom };
  };
  const t0 = Date.now();
  const rows = [];
  const warm = Math.min(30, (minutes * 60) / 4) * 1000;
  await new Promise((r) => setTimeout(r, warm));
  const first = await snapshot(cdp);
  while (Date.now() - t0 < minutes * 60000) {
    const s = await sample();
    rows.push({ min: (Date.now() - t0) / 60000, ...s });
    console.log(`t=${rows.at(-1).min.toFixed(2)} min  heap ${s.mib.toFixed(2)} MiB  xterm views ${s.xterm}  DOM elements ${s.nodes}`);
    await new Promise((r) => setTimeout(r, every * 1000));
  }
  const last = await snapshot(cdp);
  const n = rows.length;
  const sx = rows.reduce((a, r) => a + r.min, 0), sy = rows.reduce((a, r) => a + r.mib, 0);
  const sxx = rows.reduce((a, r) => a + r.min * r.min, 0), sxy = rows.reduce((a, r) => a + r.min * r.mib, 0);
  const slope = n >= 2 ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
  console.log(`\nJS heap after GC: ${rows[0]?.mib.toFixed(2)} → ${rows.at(-1)?.mib.toFixed(2)} MiB, slope ${slope >= 0 ? '+' : ''}${slope.toFixed(3)} MiB/min over ${n} samples (target ≤ 0.1)`);
  const growth = [...last].map(([k, v]) => ({ k, dc: v.count - (first.get(k)?.count ?? 0), ds: v.size - (first.get(k)?.size ?? 0), count: v.count }));
  growth.sort((a, b) => b.ds - a.ds);
  console.log('\ngrowth between the snapshots, by constructor (count Δ, self size Δ):');
  for (const g of growth.slice(0, 15)) console.log(`  ${g.k.padEnd(60)} ${String(g.dc).padStart(8)} ${(g.ds / 1024).toFixed(1).padStart(10)} KiB  (now ${g.count})`);
} catch (e) {
  code = 1;
  console.log('soak-heap failed:', e.stack ?? e, '\n', appLog.slice(-2000));
} finally {
  await browser?.close();
  try {
    process.kill(-app.pid, 'SIGTERM');
  } catch {}
  await new Promise((r) => setTimeout(r, 500));
  try {
    process.kill(-app.pid, 'SIGKILL');
  } catch {}
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
