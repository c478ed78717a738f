import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall, alive } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// Quitting with a pane at work, and a pane's own name. A second copy of the
// app runs on a data folder of its own (so quitting it leaves the runner's
// app alone), with one shell pane in folder "work" running `sleep 600`.
// Checks:
// - Ctrl+Q (the window's close request) does not quit: the window asks
//   "Quit osFoundry?" naming the pane ("sleep 600 is running in work.",
//   "Quitting ends it and everything else running in its pane."); Cancel
//   closes the question and the app and the pane's program keep running;
// - double-clicking the pane's rail entry opens its name field; typing
//   "checkout fix" and Enter makes the rail read "Working · checkout fix"
//   and the pane's Sessions board card "checkout fix";
// - Ctrl+Q again names the pane by its new name ("sleep 600 is running in
//   checkout fix."), then "Quit anyway": the app quits and the pane's
//   program ends with it;
// - started again on the same data folder, the restored pane still reads
//   "… · checkout fix" on the rail and "checkout fix" on its board card.
export default async function ({ page, tmp, env, bin, shot }) {
  const dir = join(tmp, 'quit', 'work');
  mkdirSync(dir, { recursive: true });
  const data = join(tmp, 'data-quit');
  let app = await startApp(bin, env, data);
  let running = true;
  try {
    await page.goto(app.base + '/#/terminal');
    await page.waitForSelector('.rail-col');
    const pane = await goCall(page, 'terminal.Service.Create', { dir, command: 'bash --norc --noprofile', cols: 100, rows: 30 });
    await goCall(page, 'terminal.Service.Input', pane.id, 'sleep 600\r');
    const label = () => page.locator(`[data-pane="${pane.id}"]`).textContent().then((t) => t.trim());
    await until('the pane to read Working · work', async () => (await label()) === 'Working · work');
    // The shell forks before sleep starts: on a loaded machine the first
    // look at the pane can see the fork, still named after the shell.
    await until('the pane to be busy with sleep 600', async () =>
      (await goCall(page, 'board.Service.PaneStates')).some((s) => s.id === pane.id && s.command === 'sleep 600'));
    const sleeper = async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === pane.id);

    // The close request asks, naming the pane; Cancel keeps everything.
    await page.keyboard.press('Control+q');
    const dialog = page.getByRole('alertdialog', { name: 'Quit osFoundry?' });
    await dialog.waitFor({ timeout: 10000 });
    const text = (await dialog.textContent()).replace(/\s+/g, ' ');
    assert(text.includes('sleep 600 is running in work.') && text.includes('Quitting ends it and everything else running in its pane.'), `quit question: ${text}`);
    await shot('quit-question');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await until('the question to go', async () => (await page.$('[data-quit-dialog]')) === null);
    await new Promise((r) => setTimeout(r, 500));
    assert(alive(pane.pid), 'Cancel should leave the pane running');
    assert((await fetch(app.base + '/')).ok, 'Cancel should keep the app running');
    assert((await sleeper()) && !(await sleeper()).exited, 'Cancel should keep the pane');

    // Rename from the rail.
    await page.dblclick(`[data-pane="${pane.id}"]`);
    const field = page.locator(`[data-rename="${pane.id}"]`);
    await field.waitFor();
    await page.keyboard.type('checkout fix');
    await page.keyboard.press('Enter');
    await until('the rail to read Working · checkout fix', async () => (await page.$(`[data-rename="${pane.id}"]`)) === null && (await label()) === 'Working · checkout fix');
    const cardTitle = () => page.locator(`[data-card="terminal/${pane.id}"] .title`).textContent().then((t) => t.trim());
    await page.goto(app.base + '/#/sessions');
    await until('the board card to read checkout fix', async () => (await page.$(`[data-card="terminal/${pane.id}"]`)) !== null && (await cardTitle()) === 'checkout fix');
    await shot('quit-rename-board');

    // Quit anyway quits, and the pane's program ends with the app.
    await page.goto(app.base + '/#/terminal');
    await page.waitForSelector(`[data-pane="${pane.id}"]`);
    await page.keyboard.press('Control+q');
    await dialog.waitFor({ timeout: 10000 });
    const renamed = (await dialog.textContent()).replace(/\s+/g, ' ');
    assert(renamed.includes('sleep 600 is running in checkout fix.'), `quit question after the rename: ${renamed}`);
    await dialog.getByRole('button', { name: 'Quit anyway' }).click();
    await until('the app to quit', async () => {
      try {
        await fetch(app.base + '/');
        return false;
      } catch {
        return true;
      }
    }, 20000);
    running = false;
    await until("the pane's program to end with the app", async () => !alive(pane.pid), 10000);

    // The name comes back with the pane.
    app = await startApp(bin, env, data);
    running = true;
    await page.goto(app.base + '/#/terminal');
    await until('the restored pane to read … · checkout fix', async () => (await page.$(`[data-pane="${pane.id}"]`)) !== null && / · checkout fix$/.test(await label()), 20000);
    await page.goto(app.base + '/#/sessions');
    await until('the restored board card to read checkout fix', async () => (await page.$(`[data-card="terminal/${pane.id}"]`)) !== null && (await cardTitle()) === 'checkout fix');
    await shot('quit-rename-restored');
  } finally {
    if (running) await app.quit();
    else await app.quit().catch(() => {});
  }
}
