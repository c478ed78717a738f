import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall, xtermText } from '../lib.mjs';

// Small things a new user trips over. Checks:
// 1. Claude Code's mode line "⏵⏵ accept edits on" (and ⏸, ⏺, ⎿) is drawn
//    in a terminal pane, not as empty boxes: the app ships a font with
//    these symbols, and each draws differently from a character no font has;
// 2. every composer sends the same way and says so: Enter sends,
//    Shift+Enter starts a new line, and the hint under Chat's and
//    Messages' boxes is the same words.
const symbols = ['⏵', '⏸', '⏺', '⎿', '⏹'];
const hint = 'Enter to send · Shift+Enter for a new line';

export default async function ({ page, base, tmp, shot }) {
  // 1. The symbols in a pane.
  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col'); // the screen follows new panes from here on
  const script = join(tmp, 'polish-symbols.sh');
  writeFileSync(script, "printf '  ⏵⏵ accept edits on (shift+tab to cycle)\\n  ⏸ plan mode on\\n⏺ Read the README\\n  ⎿  Read 3 lines\\n'\nsleep 120\n");
  const pane = await goCall(page, 'terminal.Service.Create', { dir: tmp, cols: 80, rows: 12, command: `bash ${script}` });
  try {
    const view = page.locator(`[data-pane-view="${pane.id}"]`);
    await view.waitFor();
    await until('the mode line in the pane', async () => (await xtermText(page, pane.id)).includes('⏵⏵ accept edits on'));
    const boxes = await page.evaluate(async ({ id, symbols }) => {
      const row = document.querySelector(`[data-pane-view="${id}"] .xterm-rows`);
      const family = getComputedStyle(row).fontFamily;
      await document.fonts.load(`13px ${family}`, symbols.join(''));
      const c = document.createElement('canvas');
      c.width = 40;
      c.height = 40;
      const g = c.getContext('2d', { willReadFrequently: true });
      const draw = (ch) => {
        g.clearRect(0, 0, 40, 40);
        g.font = `26px ${family}`;
        g.fillStyle = '#000';
        g.fillText(ch, 4, 30);
        return g.getImageData(0, 0, 40, 40).data.join(',');
      };
      const tofu = draw('\uE000'); // a private-use character: no font has it
      return symbols.filter((s) => draw(s) === tofu);
    }, { id: pane.id, symbols });
    assert(boxes.length === 0, `drawn as empty boxes in the pane's font: ${boxes.join(' ')}`);
    await view.locator('.xterm-rows').screenshot({ path: new URL('../../test-results/polish-symbols.png', import.meta.url).pathname });
  } finally {
    await goCall(page, 'terminal.Service.Close', pane.id).catch(() => {});
  }

  // 2. Chat's composer.
  await page.goto(base + '/#/chat');
  const task = page.getByRole('textbox', { name: 'Task' });
  await task.waitFor();
  assert((await page.locator('[data-send-hint]').textContent()) === hint, `Chat's hint: ${await page.locator('[data-send-hint]').textContent()}`);

  // Messages: Shift+Enter is a new line, Enter posts.
  const ov = await goCall(page, 'notes.RecordsBinding.Overview');
  await goCall(page, 'notes.Binding.CreateProject', ov.workspaces[0].id, 'Polish');
  await page.goto(base + '/#/messages');
  const disc = page.locator('[data-channel]', { hasText: 'Polish discussion' });
  await disc.click();
  await until('the open channel', async () => ((await page.locator('[data-channel-name]').textContent()) ?? '').includes('Polish discussion'));
  const box = page.getByRole('textbox', { name: 'Message' });
  assert((await page.locator('[data-send-hint]').textContent()) === hint, `Messages' hint: ${await page.locator('[data-send-hint]').textContent()}`);
  await box.click();
  await page.keyboard.type('First line');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('second line');
  assert((await box.inputValue()) === 'First line\nsecond line', `Shift+Enter is a new line: ${JSON.stringify(await box.inputValue())}`);
  assert((await page.locator('[data-message]').count()) === 0, 'nothing posted yet');
  await page.keyboard.press('Enter');
  await page.locator('[data-message][data-kind="person"]').waitFor();
  assert((await box.inputValue()) === '', 'Enter posted and cleared the box');
  await shot('polish-messages');
}
