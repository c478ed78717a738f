import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { until, assert, goCall, xtermText } from '../lib.mjs';

// Long sessions: many panes print at once (agents' spinners) while the app
// stays open for days. Every pane's output event must reach only its own
// view: one runtime listener for pane output however many panes were shown,
// not one per view that each decodes nothing but checks every event.
// Closing panes leaves no listener behind, and each view still shows its
// own spinner (nothing is lost by routing).
export default async function ({ page, base, tmp }) {
  await page.addInitScript(() => {
    // Count live pane:output subscriptions on the Wails runtime.
    let rt;
    window.__paneOutputLive = 0;
    Object.defineProperty(window, 'runtime', {
      configurable: true,
      get: () => rt,
      set: (v) => {
        const orig = v.EventsOn;
        v.EventsOn = (name, cb) => {
          const off = orig.call(v, name, cb);
          if (name !== 'pane:output') return off;
          window.__paneOutputLive++;
          let done = false;
          return () => {
            if (!done) window.__paneOutputLive--;
            done = true;
            return off();
          };
        };
        rt = v;
      },
    });
  });
  // Panes an earlier spec left open would keep a view (and the listener):
  // this spec counts from none.
  await page.goto(base + '/#/sessions');
  for (const p of (await goCall(page, 'terminal.Service.List')) ?? []) await goCall(page, 'terminal.Service.Close', p.id).catch(() => {});
  const spin = join(tmp, 'listeners-spin.sh');
  writeFileSync(spin, `i=0\nwhile :; do printf "\\r| spin-$1 %d" "$i"; i=$((i+1)); sleep 0.1; done\n`);
  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const ids = [];
  try {
    for (let i = 0; i < 6; i++) ids.push((await goCall(page, 'terminal.Service.Create', { dir: tmp, command: `bash --norc --noprofile ${spin} ${i}`, cols: 100, rows: 30 })).id);
    for (const id of ids) {
      await until(`pane ${id} on the rail`, () => page.locator(`[data-pane="${id}"]`).count());
      await page.click(`[data-pane="${id}"]`);
      await page.waitForSelector(`[data-pane-view="${id}"]`);
    }
    // Every pane's view shows its own spinner, the hidden ones too.
    for (const [i, id] of ids.entries()) await until(`pane ${i} to show spin-${i}`, async () => (await xtermText(page, id)).includes(`spin-${i} `));
    const live = await page.evaluate(() => window.__paneOutputLive);
    assert(live === 1, `six pane views should share one pane:output listener, found ${live}`);
    for (const id of ids) await goCall(page, 'terminal.Service.Close', id);
    await until('the last pane view to go', async () => (await page.locator('[data-pane-view]').count()) === 0);
    await until('no pane:output listener left after every pane closed', () => page.evaluate(() => window.__paneOutputLive === 0), 5000);
  } finally {
    for (const id of ids) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
