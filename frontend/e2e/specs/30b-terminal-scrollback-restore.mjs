import { join } from 'node:path';
import { until, assert, goCall, xtermText } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// A pane's scrollback survives a restart of the app. A second copy of the
// app runs on a data folder of its own. Checks:
//  1. a shell pane prints a line and the app quits; after the restart the
//     pane shows that line first, then the "Restored from the last
//     session" line, then the new shell's prompt, and it still takes input;
//  2. with "Keep each pane's scrollback" off, the next restart shows none
//     of it (turning it off deleted what was kept).
export default async function ({ page, tmp, env, bin, shot }) {
  const data = join(tmp, 'data-scrollback');
  const open = async (app) => {
    await page.goto(app.base + '/#/terminal');
    await page.waitForSelector('.rail-col');
  };
  let app = await startApp(bin, env, data);
  try {
    await open(app);
    const { id } = await goCall(page, 'terminal.Service.Create', { dir: tmp, command: 'bash --norc --noprofile', cols: 80, rows: 24 });
    await until('the pane on the rail', () => page.locator(`[data-pane="${id}"]`).count());
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    await page.click(`[data-pane-view="${id}"]`);
    // The typed line differs from what it prints: only output counts.
    await page.keyboard.type('echo osf-scroll-$((6*7)); printf "\\033]0;osf-title\\007"');
    await page.keyboard.press('Enter');
    await until('the output', async () => (await xtermText(page, id)).includes('\nosf-scroll-42'));

    // 1. The quit here ends the X server with the app, and losing its
    // display ends the app before its shutdown hook runs, as a crash would:
    // what survives is what the app wrote while running (a pane's output
    // once it has been still for a second). The Go tests cover the write
    // at a normal quit.
    await new Promise((r) => setTimeout(r, 5000));
    assert(await app.quit(), 'the app should quit on SIGTERM');
    app = await startApp(bin, env, data);
    await open(app);
    await until('the pane restored', () => page.locator(`[data-pane="${id}"]`).count(), 20000);
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    const text = await until('the restored output and the new prompt', async () => {
      const t = await xtermText(page, id);
      return /Restored from the last session \(.+\) · scroll up to read it/.test(t) && /Restored from the last session[^\n]*\nbash-[\d.]+[$#] /.test(t) && t;
    }, 20000).catch(async (e) => {
      throw new Error(`${e.message}\nscreen:\n${await xtermText(page, id)}\napp log:\n${app.log().slice(-3000)}`);
    });
    const old = text.indexOf('\nosf-scroll-42');
    const banner = text.indexOf('Restored from the last session');
    assert(old >= 0 && old < banner, `the earlier output should come before the restored line:\n${text}`);
    await shot('30b-restored-scrollback');
    await page.click(`[data-pane-view="${id}"]`);
    await page.keyboard.type('echo osf-new-$((7*8))');
    await page.keyboard.press('Enter');
    await until('the restored pane to take input', async () => (await xtermText(page, id)).includes('\nosf-new-56'));
    const after = await xtermText(page, id);
    assert(after.indexOf('\nosf-new-56') > banner, 'new output comes after the restored line');

    // 2.
    const prefs = (await goCall(page, 'settings.Binding.Get')).terminal;
    await goCall(page, 'settings.Binding.SetTerminal', { ...prefs, keepScrollback: false });
    assert(await app.quit(), 'the app should quit on SIGTERM');
    app = await startApp(bin, env, data);
    await open(app);
    await until('the pane restored again', () => page.locator(`[data-pane="${id}"]`).count(), 20000);
    await page.click(`[data-pane="${id}"]`);
    await page.waitForSelector(`[data-pane-view="${id}"] .xterm-rows`);
    await until('the new shell prompt', async () => /bash-[\d.]+[$#] /.test(await xtermText(page, id)), 20000).catch(async (e) => {
      throw new Error(`${e.message}\nscreen:\n${await xtermText(page, id)}\npanes: ${JSON.stringify(await goCall(page, 'terminal.Service.List'))}\napp log:\n${app.log().slice(-3000)}`);
    });
    await new Promise((r) => setTimeout(r, 500));
    const none = await xtermText(page, id);
    assert(!none.includes('osf-scroll-42') && !none.includes('osf-new-56') && !none.includes('Restored from the last session'),
      `with keeping off nothing of the earlier sessions should come back:\n${none}`);
  } finally {
    await app.quit();
  }
}
