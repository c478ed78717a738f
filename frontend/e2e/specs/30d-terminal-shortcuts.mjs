import { until, assert, goCall, xtermText } from '../lib.mjs';

// The keyboard shortcuts, each pressed with the focus in a terminal pane
// unless said otherwise (Linux keys). Checks:
//  1. Alt+2 gives slot 2 the keyboard; Ctrl+Shift+] / [ go to the next and
//     previous pane (one on screen gets the keyboard in its slot, one not on
//     screen takes the focused slot); in 3 stacked and 3 side by side
//     Alt+1 to Alt+3 reach each of the three slots;
//  2. `?` in a pane is typed into the program; outside a pane it opens the
//     shortcuts sheet, which lists each key; the status bar button opens it
//     too, and so does the header's button on any screen; Escape closes it;
//  3. Ctrl+Shift+T opens the New pane form; Ctrl+Shift+W asks before
//     closing a pane whose program runs (as the rail's ✕ does);
//  4. Ctrl+R, which the app does not claim, reaches the pane's program;
//  5. Settings → Keyboard: a key another shortcut has is refused with a
//     message; Focus slot 1 turned off, Alt+1 reaches the program; Reset
//     brings it back; the tooltip of + New pane shows the key;
//  6. Ctrl+Shift+B opens the board.
export default async function ({ page, base, tmp, shot }) {
  const slotPanes = () => page.$$eval('[data-slot]', (els) => els.map((e) => e.getAttribute('data-slot-pane')));
  const inPane = (id) => page.evaluate((i) => !!document.activeElement?.closest(`[data-pane-view="${i}"]`), id);
  /** bytes runs a reader in the pane that prints the next n bytes it gets, in hex, after keys are pressed. */
  const bytes = async (id, n, tag, press) => {
    await page.click(`[data-pane-view="${id}"]`);
    await page.keyboard.type(`echo ${tag}-ready; stty raw -echo; X=$(head -c ${n} | od -An -tx1); stty sane; echo "${tag}[$X]"`);
    await page.keyboard.press('Enter');
    await until(`${tag}: the reader`, async () => (await xtermText(page, id)).includes(`\n${tag}-ready`));
    await new Promise((r) => setTimeout(r, 300));
    await press();
    const m = await until(`${tag}: what the program got`, async () => (await xtermText(page, id)).match(new RegExp(`\\n${tag}\\[([^\\]]*)\\]`)));
    return m[1].trim();
  };

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const ids = [];
  for (const n of [1, 2, 3]) {
    const { id } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'bash --norc --noprofile', cols: 80, rows: 24 });
    ids.push(id);
    await until(`pane ${n} on the rail`, () => page.locator(`[data-pane="${id}"]`).count());
  }
  const order = await page.$$eval('[data-pane]', (els) => els.map((e) => e.getAttribute('data-pane')));
  const [a, b, c] = ids.map((id) => order.indexOf(id)).sort((x, y) => x - y).map((i) => order[i]);
  try {
    await page.click(`[data-pane="${c}"]`);
    await page.click('[data-layout="columns"]');
    await until('C and the first pane side by side', async () => (await slotPanes()).join() === [c, a].join());
    await page.waitForSelector(`[data-pane-view="${a}"] .xterm-rows`);
    await page.click(`[data-pane-view="${c}"]`);

    // 1.
    await page.keyboard.press('Alt+2');
    await until('Alt+2: slot 2 has the keyboard', async () => (await page.locator('[data-slot="1"].focused').count()) && inPane(a));
    await page.keyboard.press('Alt+1');
    await until('Alt+1: back in slot 1', () => inPane(c));
    await page.keyboard.press('Control+Shift+BracketRight');
    await until('next pane after the last wraps to the first, on screen in slot 2', () => inPane(a));
    assert((await slotPanes()).join() === [c, a].join(), 'a pane on screen keeps its slot');
    await page.keyboard.press('Control+Shift+BracketRight');
    await until('the next pane, not on screen, takes the focused slot', async () => (await slotPanes()).join() === [c, b].join() && inPane(b));
    await page.keyboard.press('Control+Shift+BracketLeft');
    await until('previous pane', async () => (await slotPanes()).join() === [c, a].join() && inPane(a));
    await page.click('[data-layout="rows3"]');
    await until('three stacked', async () => (await slotPanes()).join() === [c, a, b].join());
    await page.waitForSelector(`[data-pane-view="${b}"] .xterm-rows`);
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.press('Alt+3');
    await until('3 stacked, Alt+3: slot 3 has the keyboard', async () => (await page.locator('[data-slot="2"].focused').count()) && inPane(b));
    await page.keyboard.press('Alt+1');
    await until('3 stacked, Alt+1: slot 1', async () => (await page.locator('[data-slot="0"].focused').count()) && inPane(c));
    await page.click('[data-layout="columns3"]');
    await until('three side by side', async () => (await slotPanes()).join() === [c, a, b].join());
    await page.click(`[data-pane-view="${c}"]`);
    await page.keyboard.press('Alt+3');
    await until('3 side by side, Alt+3: slot 3', async () => (await page.locator('[data-slot="2"].focused').count()) && inPane(b));
    await page.keyboard.press('Alt+2');
    await until('3 side by side, Alt+2: slot 2', async () => (await page.locator('[data-slot="1"].focused').count()) && inPane(a));
    await page.click('[data-layout="columns"]');
    await until('side by side again', async () => (await slotPanes()).join() === [c, a].join());
    await page.click(`[data-pane-view="${a}"]`);
    await until('back in A', () => inPane(a));

    // 2.
    await page.keyboard.type("echo 'is?this'");
    await page.keyboard.press('Enter');
    await until('? typed into the shell', async () => (await xtermText(page, a)).includes('\nis?this'));
    assert((await page.locator('[data-shortcuts-sheet]').count()) === 0, '? in a pane must not open the sheet');
    await page.click('.status-bar > span:first-child');
    await page.keyboard.press('?');
    const sheet = page.locator('[data-shortcuts-sheet]');
    await sheet.waitFor();
    const listed = (await sheet.textContent()).replace(/\s+/g, ' ');
    for (const want of ['New pane Ctrl+Shift+T', 'Next pane Ctrl+Shift+]', 'Previous pane Ctrl+Shift+[', 'Close pane Ctrl+Shift+W', 'Focus slot 4 Alt+4', 'Go to the board (Sessions) Ctrl+Shift+B', 'Go to what needs you Ctrl+.', 'Show keyboard shortcuts ?'])
      assert(listed.includes(want), `the sheet should list "${want}": ${listed}`);
    await shot('30d-shortcuts-sheet');
    await page.keyboard.press('Escape');
    await until('Escape closes the sheet', async () => (await sheet.count()) === 0);
    await page.click('[data-open-shortcuts]');
    await sheet.waitFor();
    await sheet.getByRole('button', { name: 'Close' }).click();
    await until('Close closes the sheet', async () => (await sheet.count()) === 0);

    // 3.
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.press('Control+Shift+T');
    const form = page.getByRole('form', { name: 'New pane' });
    await form.waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await until('the form gone', async () => (await form.count()) === 0);
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.type('sleep 300');
    await page.keyboard.press('Enter');
    await until('sleep running', async () => (await page.locator(`[data-pane-what="${a}"]`).textContent()).includes('sleep'), 20000);
    // The close question follows the pane's state, which the activity
    // sweep moves a moment after the rail's list shows the program.
    await until('the pane working', async () => (await page.locator(`[data-pane="${a}"]`).textContent()).trim().startsWith('Working'), 20000);
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.press('Control+Shift+W');
    const ask = page.locator(`[data-close-dialog="${a}"]`);
    await ask.waitFor();
    assert((await ask.textContent()).includes('sleep 300 is running in'), `the question: ${await ask.textContent()}`);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await until('the dialog gone', async () => (await ask.count()) === 0);
    assert((await page.locator(`[data-pane="${a}"]`).count()) === 1, 'Cancel keeps the pane');
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.press('Control+C');

    // 4.
    assert((await bytes(a, 1, 'ctrlr', () => page.keyboard.press('Control+R'))) === '12', 'Ctrl+R should reach the program as ^R');

    // 5.
    await page.goto(base + '/#/settings?section=keyboard');
    const kb = page.locator('[data-settings-keyboard]');
    await kb.waitFor();
    await kb.locator('[data-change="board"]').click();
    await page.keyboard.press('Control+Shift+T');
    const refusal = kb.locator('[data-key-refusal="board"]');
    await refusal.waitFor();
    assert((await refusal.textContent()) === 'Ctrl+Shift+T is already the shortcut for “New pane”. Give that one another key or turn it off first.', `refusal: ${await refusal.textContent()}`);
    assert((await kb.locator('[data-key="board"]').textContent()) === 'Ctrl+Shift+B', 'a refused key changes nothing');
    await kb.locator('[data-off="focusSlot1"]').click();
    await until('Focus slot 1 off', async () => (await kb.locator('[data-key="focusSlot1"]').textContent()) === 'Off');
    await kb.locator('[data-change="needsYou"]').click();
    await page.keyboard.press('Control+Alt+J');
    await until('Go to what needs you on Ctrl+Alt+J', async () => (await kb.locator('[data-key="needsYou"]').textContent()) === 'Ctrl+Alt+J');
    await shot('30d-settings-keyboard');
    const saved = (await goCall(page, 'settings.Binding.Get')).shortcuts;
    assert(saved.focusSlot1 === '' && saved.needsYou === 'Ctrl+Alt+J' && !('board' in saved), `saved: ${JSON.stringify(saved)}`);
    await page.goto(base + '/#/terminal');
    await page.waitForSelector(`[data-pane-view="${a}"] .xterm-rows`);
    assert((await page.locator('.status-bar').textContent()).includes('Ctrl+Alt+J to jump to what needs you'), 'the status bar shows the changed key');
    assert((await bytes(a, 2, 'alt1', () => page.keyboard.press('Alt+1'))) === '1b 31', 'with Focus slot 1 off Alt+1 reaches the program as ESC 1');
    const tipText = await page.locator('.rail-head .btn').getAttribute('data-tip');
    assert(tipText.includes('(Ctrl+Shift+T)'), `the New pane tooltip: ${tipText}`);
    await page.goto(base + '/#/settings?section=keyboard');
    await kb.locator('[data-reset="focusSlot1"]').click();
    await kb.locator('[data-reset="needsYou"]').click();
    await until('the defaults back', async () => (await kb.locator('[data-key="focusSlot1"]').textContent()) === 'Alt+1' && (await kb.locator('[data-key="needsYou"]').textContent()) === 'Ctrl+.');
    assert(Object.keys((await goCall(page, 'settings.Binding.Get')).shortcuts).length === 0, 'reset keys are not kept as changes');
    // The header's button opens the sheet on every screen.
    await page.click('[data-shortcuts-button]');
    await page.locator('[data-shortcuts-sheet]').waitFor();
    await page.keyboard.press('Escape');
    await until('the sheet closed', async () => (await page.locator('[data-shortcuts-sheet]').count()) === 0);

    // 6.
    await page.goto(base + '/#/terminal');
    await page.waitForSelector(`[data-pane-view="${a}"] .xterm-rows`);
    await page.click(`[data-pane-view="${a}"]`);
    await page.keyboard.press('Control+Shift+B');
    await until('the board', () => page.evaluate(() => window.location.hash.startsWith('#/sessions')));
  } finally {
    await goCall(page, 'settings.Binding.SetShortcuts', {}).catch(() => {});
    await goCall(page, 'settings.Binding.SetLayout', { kind: 'single', slots: [], split: [0.5, 0.5], focus: 0 }).catch(() => {});
    for (const id of ids) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
