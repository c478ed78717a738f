import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { until, assert, goCall, xtermText } from '../lib.mjs';

// A pane's rows are drawn with no-break spaces (lib/terminalRows.ts: WebKit
// keeps the break positions of every row text it lays out, so a spinner grew
// the window's memory for hours). The person sees and copies the program's
// own text: the spaces stay in xterm.js's buffer and in a copied selection,
// and a no-break space takes a cell's width like a space.
export default async function ({ page, base, tmp, shot }) {
  const script = join(tmp, 'rows-spin.sh');
  writeFileSync(script, `printf 'one two  three\\n'\ni=0\nwhile :; do printf '\\r| working… %d (esc to interrupt)' "$i"; i=$((i+1)); sleep 0.1; done\n`);
  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const { id } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: `bash --norc --noprofile ${script}`, cols: 80, rows: 24 });
  try {
    await until('the pane on the rail', () => page.locator(`[data-pane="${id}"]`).count());
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    await until('the spinner to count past 20', async () => Number((await xtermText(page, id)).match(/working… (\d+)/)?.[1]) > 20);
    await shot('terminal-rows');

    const seen = await page.evaluate((paneId) => {
      const host = document.querySelector(`[data-pane-view="${paneId}"]`);
      const rows = [...host.querySelectorAll('.xterm-rows > div')].map((r) => r.textContent);
      const t = host.__xterm;
      t.selectAll();
      const copied = t.getSelection();
      t.clearSelection();
      // A no-break space and a space drawn in the pane's font: same width.
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(host.querySelector('.xterm-rows')).font;
      probe.style.whiteSpace = 'pre';
      host.append(probe);
      probe.textContent = 'a\u00a0\u00a0\u00a0\u00a0b';
      const nbsp = probe.getBoundingClientRect().width;
      probe.textContent = 'a    b';
      const space = probe.getBoundingClientRect().width;
      probe.remove();
      return { rows, copied, nbsp, space };
    }, id);

    const words = seen.rows.find((r) => r.startsWith('one'));
    assert(words === 'one\u00a0two\u00a0\u00a0three', `the row "one two  three" should be drawn with no-break spaces, got the characters ${[...(words ?? "")].map((c) => c.charCodeAt(0).toString(16)).join(" ")}`);
    const spinner = seen.rows.find((r) => r.startsWith('|'));
    assert(spinner && !spinner.includes(' '), `the spinner row should have no plain space left, got ${JSON.stringify(spinner)}`);
    assert(seen.rows.every((r) => !r.includes(' ')), 'no drawn row should keep a plain space');
    assert(seen.copied.includes('one two  three'), `a copied selection should keep the program's spaces, got ${JSON.stringify(seen.copied.slice(0, 80))}`);
    assert(/\| working… \d+ \(esc to interrupt\)/.test(seen.copied), 'the copied spinner row should keep its spaces');
    assert((await xtermText(page, id)).includes('one two  three'), "xterm.js's buffer should keep the program's spaces");
    assert(Math.abs(seen.nbsp - seen.space) < 0.5, `a no-break space should be as wide as a space in the pane's font: ${seen.nbsp} vs ${seen.space}`);
  } finally {
    await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
