import { until, assert, xtermText, goCall, alive } from '../lib.mjs';

// Create a shell pane, type into it, read the echo back from xterm.js,
// resize the window, close the pane and check its process is gone.
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/terminal');
  await page.getByRole('button', { name: 'Start' }).click();
  const view = await page.waitForSelector('[data-pane-view]');
  const id = await view.getAttribute('data-pane-view');
  await until('a shell prompt', async () => (await xtermText(page, id)).trim().length > 0);
  await view.click();
  await page.keyboard.type('echo hello-$RANDOM\n');
  const m = await until('hello-<number> echoed back', async () => (await xtermText(page, id)).match(/^hello-(\d+)\s*$/m));
  assert(Number(m[1]) >= 0, 'echo output should be hello-<number>');
  await shot('terminal');

  const before = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id);
  await page.setViewportSize({ width: 900, height: 520 });
  const after = await until('the backend pane to follow the resize', async () => {
    const p = (await goCall(page, 'terminal.Service.List')).find((x) => x.id === id);
    return p && p.cols < before.cols && p.rows < before.rows ? p : null;
  });
  await page.keyboard.type('stty size\n');
  await until('stty to report the new size', async () => (await xtermText(page, id)).includes(`${after.rows} ${after.cols}`));

  const pid = after.pid;
  assert(alive(pid), `pane process ${pid} should be alive before closing`);
  await page.getByRole('button', { name: 'Close pane' }).click();
  // The shell's start-up files may still run a program of their own (a
  // version manager's rehash); then Close asks first, as it should.
  await until('the pane process to end', async () => {
    const ask = page.locator(`[data-close-dialog="${id}"]`).getByRole('button', { name: 'Close pane' });
    if (await ask.isVisible().catch(() => false)) await ask.click().catch(() => {});
    return !alive(pid);
  });
  await until('the rail to drop the pane', async () => (await page.$(`[data-pane-view="${id}"]`)) === null);
}
