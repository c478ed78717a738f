import { until, assert, goCall, xtermText } from '../lib.mjs';

// Settings → Terminal, as a person tunes their panes. Checks:
//  1. the section shows the saved defaults (13 px, block cursor, 5,000
//     lines, the app's own colours);
//  2. an invalid size says why beside the field and is not saved, in the
//     screen and in Go;
//  3. a valid size, the bar cursor and another palette are saved, and the
//     open pane's xterm.js takes them: options, colours, fewer rows at the
//     bigger font, and the backend's pane follows the new size;
//     a change saved while the pane is on screen reaches it live;
//  4. the settings survive a reload; Reset to defaults brings them back.
const paneOptions = (page, id) =>
  page.evaluate((paneId) => {
    const t = document.querySelector(`[data-pane-view="${paneId}"]`)?.__xterm;
    if (!t) return null;
    const o = t.options;
    return { fontSize: o.fontSize, fontFamily: o.fontFamily, cursorStyle: o.cursorStyle, cursorBlink: o.cursorBlink, scrollback: o.scrollback,
      lineHeight: o.lineHeight, background: o.theme?.background, red: o.theme?.red, rows: t.rows, cols: t.cols };
  }, id);

export default async function ({ page, base, tmp, shot }) {
  await page.goto(base + '/#/settings');
  const defaults = (await goCall(page, 'settings.Binding.Get')).terminal;
  const { id } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'bash --norc --noprofile', cols: 80, rows: 24 });
  try {
    // The pane as it starts: the saved defaults.
    await page.goto(base + '/#/terminal');
    await until('the pane on the rail', () => page.locator(`[data-pane="${id}"]`).count());
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    const before = await until('the pane to take its options', async () => {
      const o = await paneOptions(page, id);
      return o?.background === '#141417' && o;
    });
    assert(before.fontSize === 13 && before.cursorStyle === 'block' && before.scrollback === 5000, `pane options at start: ${JSON.stringify(before)}`);
    assert(before.fontFamily.endsWith('"osFoundry Symbols", monospace'), `the font list should end in the app's fallback: ${before.fontFamily}`);

    // 1.
    await page.goto(base + '/#/settings');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Terminal', exact: true }) });
    const size = section.getByLabel('Font size');
    await size.waitFor();
    assert((await size.inputValue()) === '13', `font size field: ${await size.inputValue()}`);
    assert((await section.getByRole('combobox', { name: 'Cursor' }).inputValue()) === 'block', 'cursor field');
    assert((await section.getByRole('spinbutton', { name: 'Scrollback' }).inputValue()) === '5000', 'scrollback field');
    assert((await section.getByRole('combobox', { name: 'Colours' }).inputValue()) === 'osfoundry-dark', 'palette field');
    await section.getByText("Keep each pane's scrollback when osFoundry quits").waitFor();

    // 2.
    await size.fill('40');
    await size.press('Tab');
    await section.getByRole('alert').filter({ hasText: 'Font size must be a whole number from 8 to 32 px.' }).waitFor();
    await new Promise((r) => setTimeout(r, 600));
    assert((await goCall(page, 'settings.Binding.Get')).terminal.fontSize === 13, 'an invalid size must not be saved');
    const refused = await goCall(page, 'settings.Binding.SetTerminal', { ...defaults, fontSize: 100 }).then(() => '', (e) => String(e?.message ?? e));
    assert(refused.includes('Font size must be a whole number from 8 to 32 px.'), `Go should refuse 100 px with the same words: ${refused}`);

    // 3.
    await size.fill('20');
    await size.press('Tab');
    await until('the size saved', async () => (await goCall(page, 'settings.Binding.Get')).terminal.fontSize === 20);
    assert((await section.getByRole('alert').count()) === 0, 'the size message should be gone');
    await section.getByRole('combobox', { name: 'Cursor' }).selectOption('bar');
    await until('the cursor saved', async () => (await goCall(page, 'settings.Binding.Get')).terminal.cursorStyle === 'bar');
    await section.getByRole('combobox', { name: 'Colours' }).selectOption('dracula');
    await until('the palette saved', async () => (await goCall(page, 'settings.Binding.Get')).terminal.palette === 'dracula');
    await section.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await shot('30-terminal-settings');

    await page.goto(base + '/#/terminal');
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    const after = await until('the open pane to take the new settings', async () => {
      const o = await paneOptions(page, id);
      return o?.fontSize === 20 && o.rows < before.rows && o;
    });
    assert(after.cursorStyle === 'bar' && after.background === '#282a36' && after.red === '#ff5555', `pane options after the change: ${JSON.stringify(after)}`);
    const bg = await page.$eval(`[data-pane-view="${id}"]`, (el) => getComputedStyle(el).backgroundColor);
    assert(bg === 'rgb(40, 42, 54)', `the pane's frame should take the palette's background, got ${bg}`);
    await until("the backend pane to follow the view's new size", async () => {
      const p = (await goCall(page, 'terminal.Service.List')).find((x) => x.id === id);
      return p && p.rows === after.rows && p.cols === after.cols;
    });
    // A change saved while the pane is on screen (from Go, as another
    // window would) reaches it at once: no navigation, no restart.
    const live = (await goCall(page, 'settings.Binding.Get')).terminal;
    await goCall(page, 'settings.Binding.SetTerminal', { ...live, fontSize: 16, cursorStyle: 'underline', cursorBlink: true });
    await until('the open pane to follow a saved change live', async () => {
      const o = await paneOptions(page, id);
      return o?.fontSize === 16 && o.cursorStyle === 'underline' && o.cursorBlink && o.rows > after.rows;
    });
    await goCall(page, 'settings.Binding.SetTerminal', live);
    await until('the pane back at 20 px', async () => (await paneOptions(page, id))?.fontSize === 20);
    await page.click(`[data-pane-view="${id}"]`);
    await page.keyboard.type('echo osf-big-$((6*7))');
    await page.keyboard.press('Enter');
    await until('the pane to still work', async () => (await xtermText(page, id)).includes('osf-big-42'));
    await shot('30-terminal-pane-after');

    // 4.
    await page.goto(base + '/#/settings');
    await until('the saved size after a reload', async () => (await section.getByLabel('Font size').inputValue()) === '20');
    await section.getByRole('button', { name: 'Reset to defaults' }).click();
    await until('the defaults saved', async () => (await goCall(page, 'settings.Binding.Get')).terminal.fontSize === 13);
    const back = (await goCall(page, 'settings.Binding.Get')).terminal;
    assert(back.cursorStyle === 'block' && back.palette === 'osfoundry-dark', `after Reset: ${JSON.stringify(back)}`);
  } finally {
    await goCall(page, 'settings.Binding.SetTerminal', defaults).catch(() => {});
    await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
