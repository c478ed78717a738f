import { join } from 'node:path';
import { until, assert, goCall, xtermText } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// The Terminal split into slots. A copy of the app runs on a data folder
// of its own, so a restart can be checked. Checks:
//  1. Side by side: the two newest-but-one panes fill both slots, each with
//     its own state line; each pane's terminal and its program have the
//     slot's width (about half the single pane's columns), and the slots
//     do not overlap;
//  2. the 2 × 2 grid shows three panes and an empty slot that says to drag
//     one there; a pane dragged from the list onto a slot shows there;
//  3. dragging the divider changes both slots' columns, the program's too;
//  4. "Needs you"-style jumps (#/terminal?pane=) give the keyboard to the
//     slot that shows the pane, and put a pane not on screen in the
//     focused slot;
//  5. panes in no slot are not drawn (display: none);
//  6. after a restart the layout, the divider and which pane is in which
//     slot come back;
//  7. 3 side by side: three panes, each terminal and program a third of
//     the width; each divider moves its own boundary and stops before the
//     middle slot gets too narrow; after a restart the three slots and
//     both dividers come back.
export default async function ({ page, tmp, env, bin, shot }) {
  const data = join(tmp, 'data-split');
  const open = async (app) => {
    await page.goto(app.base + '/#/terminal');
    await page.waitForSelector('.rail-col');
  };
  const cols = (id) => page.evaluate((i) => document.querySelector(`[data-pane-view="${i}"]`)?.__xterm?.cols ?? 0, id);
  const box = (id) => page.locator(`[data-pane-view="${id}"]`).boundingBox();
  const slotPanes = () => page.$$eval('[data-slot]', (els) => els.map((e) => e.getAttribute('data-slot-pane')));
  /** stty in the pane prints what the program sees as its size. */
  const sttyCols = async (id, tag) => {
    await page.click(`[data-pane-view="${id}"]`);
    await page.keyboard.type(`echo ${tag}-$(stty size | cut -d' ' -f2)-end`);
    await page.keyboard.press('Enter');
    const re = new RegExp(`\\n${tag}-(\\d+)-end`);
    const m = await until(`${tag}: the program's width`, async () => (await xtermText(page, id)).match(re));
    return Number(m[1]);
  };
  /** fits: the program in pane id has its terminal's width. */
  const fits = async (id, tag, what) => {
    const [got, want] = [await sttyCols(id, tag), await cols(id)];
    assert(got === want, `${what}: ${got} columns, its terminal ${want}`);
  };

  let app = await startApp(bin, env, data);
  try {
    await open(app);
    const ids = [];
    for (const n of [1, 2, 3, 4]) {
      const { id } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'bash --norc --noprofile', cols: 80, rows: 24 });
      ids.push(id);
      await until(`pane ${n} on the rail`, () => page.locator(`[data-pane="${id}"]`).count());
    }
    const [a, b, c, d] = ids;
    await page.click(`[data-pane="${d}"]`);
    await page.waitForSelector(`[data-pane-view="${d}"] .xterm-rows`);
    const singleCols = await until('the single pane fitted', async () => (await cols(d)) > 100 && cols(d));

    // 1.
    await page.click('[data-layout="columns"]');
    await until('two slots', async () => (await slotPanes()).length === 2);
    const two = await slotPanes();
    assert(two[0] === d && two[1] === a, `side by side should keep ${d} and add the first pane not shown, got ${two}`);
    await page.waitForSelector(`[data-pane-view="${a}"] .xterm-rows`);
    const [bd, ba] = [await box(d), await box(a)];
    assert(bd.x + bd.width <= ba.x && Math.abs(bd.y - ba.y) < 2, `the slots overlap: ${JSON.stringify([bd, ba])}`);
    const half = await until('both halves fitted', async () => {
      const [x, y] = [await cols(d), await cols(a)];
      return x > 20 && y > 20 && x < singleCols * 0.6 && y < singleCols * 0.6 && [x, y];
    });
    await fits(a, 'wa', "the program's width should follow its slot");
    for (const id of [d, a]) assert(await page.locator(`[data-slot-state="${id}"]`).isVisible(), `slot of ${id} should show its state`);
    const st = await page.locator(`[data-slot-state="${a}"]`).textContent();
    assert(/^(Idle|Working) · /.test(st), `state line: ${st}`);
    await shot('30c-side-by-side');

    // 2.
    await page.click('[data-layout="grid"]');
    await until('four slots', async () => (await slotPanes()).length === 4);
    let grid = await slotPanes();
    assert(grid[0] === d && grid[1] === a && grid[2] === b && grid[3] === c, `grid: ${grid}`);
    await goCall(page, 'terminal.Service.Close', c);
    await until('the closed pane leaves its slot', async () => (await slotPanes())[3] === '');
    assert((await page.locator('[data-slot="3"]').textContent()).includes('Drag a pane here from the list on the left.'), 'an empty slot says what to do');
    await shot('30c-grid-empty-slot');
    const { id: e } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'bash --norc --noprofile', cols: 80, rows: 24 });
    await until('pane 5 on the rail', () => page.locator(`[data-pane="${e}"]`).count());
    // A new pane from outside fills the empty slot; drag another one over a slot.
    await until('the new pane in the empty slot', async () => (await slotPanes())[3] === e);
    const src = page.locator(`[data-pane="${b}"]`);
    const target = await page.locator('[data-slot="0"]').boundingBox();
    await src.hover();
    await page.mouse.down();
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
    await page.waitForSelector('[data-drop-slot="0"]');
    await page.mouse.move(target.x + target.width / 2 + 5, target.y + target.height / 2 + 5, { steps: 2 });
    await page.mouse.up();
    await until('the dragged pane in slot 1, the slots swapped', async () => {
      const s = await slotPanes();
      return s[0] === b && s[2] === d;
    });
    assert((await page.locator('[data-drop-slot]').count()) === 0, 'the drop targets go away after the drop');

    // 3.
    const before = [await cols(b), await cols(a)];
    const div = await page.locator('[data-divider="x"]').boundingBox();
    await page.mouse.move(div.x + div.width / 2, div.y + 40);
    await page.mouse.down();
    await page.mouse.move(div.x - 200, div.y + 40, { steps: 6 });
    await page.mouse.up();
    await until('the left slots narrower, the right ones wider', async () => (await cols(b)) < before[0] - 10 && (await cols(a)) > before[1] + 10);
    await fits(b, 'wb', "the program's width follows the divider");
    await shot('30c-grid-resized');

    // 4.
    await page.evaluate((id) => (window.location.hash = '#/terminal?pane=' + encodeURIComponent(id)), e);
    await until('the jump gives slot 4 the keyboard', () => page.locator('[data-slot="3"].focused').count());
    await until("the keyboard in that slot's terminal", () =>
      page.evaluate((id) => !!document.activeElement?.closest(`[data-pane-view="${id}"]`), e));
    await page.click('[data-layout="columns"]'); // slot 4 had the keyboard: e stays, in slot 2
    const cols2 = await until('two slots again', async () => { const s = await slotPanes(); return s.length === 2 && s; });
    assert(cols2[1] === e && cols2[0] === b, `columns after the grid: ${cols2}`);
    await page.click('[data-slot="0"] .head');
    await page.evaluate((id) => (window.location.hash = '#/terminal?pane=' + encodeURIComponent(id)), d);
    await until('a pane not on screen takes the focused slot', async () => (await slotPanes())[0] === d);

    // 5.
    const hidden = await page.evaluate((id) => {
      const host = document.querySelector(`[data-pane-view="${id}"]`)?.parentElement;
      return host ? getComputedStyle(host).display : 'none';
    }, a);
    assert(hidden === 'none', `a pane in no slot should not be drawn, its host is display: ${hidden}`);

    // 6.
    await page.click('[data-layout="grid"]');
    await until('four slots', async () => (await slotPanes()).length === 4);
    grid = await slotPanes();
    const split = (await goCall(page, 'settings.Binding.Get')).layout;
    assert(split.kind === 'grid' && split.slots.join() === grid.join() && split.split[0] < 0.45, `saved layout: ${JSON.stringify(split)}`);
    assert(await app.quit(), 'the app should quit on SIGTERM');
    app = await startApp(bin, env, data);
    await open(app);
    await until('the panes restored', () => page.locator(`[data-pane="${e}"]`).count(), 20000);
    await until('the grid and its slots restored', async () => (await slotPanes()).join() === grid.join(), 20000);
    for (const id of grid.filter(Boolean)) await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    const left = await box(grid[0]);
    const right = await box(grid[1]);
    assert(left.width < right.width * 0.8, `the divider should come back where it was: ${left.width} vs ${right.width}`);
    await until('the restored panes fitted to their slots', async () => (await cols(grid[0])) > 10 && (await cols(grid[0])) < (await cols(grid[1])));
    await shot('30c-grid-restored');

    // 7.
    await page.click('[data-layout="columns3"]');
    const three = await until('three slots, each with a pane', async () => {
      const s = await slotPanes();
      return s.length === 3 && s.every(Boolean) && new Set(s).size === 3 && s;
    });
    for (const id of three) await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    const thirds = await until('the thirds fitted', async () => {
      const cs = await Promise.all(three.map(cols));
      return cs.every((n) => n > singleCols * 0.25 && n < singleCols * 0.4) && cs;
    });
    const boxes3 = await Promise.all(three.map(box));
    for (let i = 1; i < 3; i++) {
      assert(boxes3[i - 1].x + boxes3[i - 1].width <= boxes3[i].x && Math.abs(boxes3[i - 1].y - boxes3[i].y) < 2,
        `the slots should sit side by side: ${JSON.stringify(boxes3)}`);
    }
    for (const [i, id] of three.entries()) {
      await fits(id, `t${i}-`, `the program in slot ${i + 1} should have its third's width`);
    }
    assert(await page.locator('[data-slot="2"].focused').count(), 'clicking into the third slot gives it the keyboard');
    await shot('30c-three-side-by-side');
    // The second divider moves only the boundary between slots 2 and 3.
    const div2 = await page.locator('[data-divider-at="1"]').boundingBox();
    await page.mouse.move(div2.x + div2.width / 2, div2.y + 40);
    await page.mouse.down();
    await page.mouse.move(div2.x - 120, div2.y + 40, { steps: 6 });
    await page.mouse.up();
    await until('the middle slot narrower, the right one wider, the left one as it was', async () => {
      const cs = await Promise.all(three.map(cols));
      return cs[0] === thirds[0] && cs[1] < thirds[1] - 8 && cs[2] > thirds[2] + 8;
    });
    await fits(three[2], 'tw', "the program's width follows the second divider");
    // The first divider dragged past the second stops before the middle slot gets too narrow.
    const area = await page.locator('[data-split]').boundingBox();
    const div1 = await page.locator('[data-divider-at="0"]').boundingBox();
    await page.mouse.move(div1.x + div1.width / 2, div1.y + 40);
    await page.mouse.down();
    await page.mouse.move(area.x + area.width - 5, div1.y + 40, { steps: 8 });
    await page.mouse.up();
    // Saved with the first divider stopped 15% before the second.
    const saved3 = await until('the dividers saved, the middle slot kept at 15%', async () => {
      const l = (await goCall(page, 'settings.Binding.Get')).layout;
      return l.kind === 'columns3' && l.split[0] > 0.36 && Math.abs(l.split[1] - l.split[0] - 0.15) < 0.001 && l;
    });
    assert(saved3.slots.join() === three.join() && saved3.split[1] < 0.6, `saved layout: ${JSON.stringify(saved3)}`);
    const middle = (await box(three[1])).width;
    assert(middle > area.width * 0.12, `the middle slot should stay usable: ${middle}px of ${area.width}px`);
    const before3 = await Promise.all(three.map(cols));
    await shot('30c-three-resized');
    assert(await app.quit(), 'the app should quit on SIGTERM');
    app = await startApp(bin, env, data);
    await open(app);
    await until('the three slots restored', async () => (await slotPanes()).join() === three.join(), 20000);
    for (const id of three) await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    await until('the restored panes fitted to where the dividers were', async () =>
      (await Promise.all(three.map(cols))).every((n, i) => Math.abs(n - before3[i]) <= 1));
    const restored = (await goCall(page, 'settings.Binding.Get')).layout;
    assert(restored.split.join() === saved3.split.join(), `the dividers after a restart: ${restored.split} vs ${saved3.split}`);
  } finally {
    await app.quit();
  }
}
