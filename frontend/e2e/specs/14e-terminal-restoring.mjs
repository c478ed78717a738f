import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// A start with saved panes whose login shell is slow to read (a `sleep` in
// ~/.bash_profile, like a slow `pyenv init`): the restore waits for the
// shell's environment, and meanwhile the rail says the panes are coming
// back — never "No panes yet", which would send the person to start them
// again. Then the two panes arrive.
export default async function ({ page, tmp, env, bin, shot }) {
  const home = join(tmp, 'home-slow-shell');
  const data = join(tmp, 'data-restoring');
  const dir = join(tmp, 'restoring-folder');
  mkdirSync(home, { recursive: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.bash_profile'), 'sleep 4\n');
  const { OSF_FROM_TERMINAL: _, ...appEnv } = env;
  execFileSync(bin, ['panes', 'seed', '--count', '2', '--dir', dir], { env: { ...appEnv, HOME: home, OSFOUNDRY_HOME: data } });

  const app = await startApp(bin, { ...appEnv, HOME: home }, data);
  try {
    // Everything the rail ever said, from the page's first moment: whether
    // the page loads before or after the restore ends depends on the
    // machine's speed, what the rail says must not.
    await page.addInitScript(() => {
      const saw = (window.__railSaw = { noPanes: false, restoring: '' });
      new MutationObserver(() => {
        const text = document.querySelector('aside')?.textContent ?? '';
        if (text.includes('No panes yet')) saw.noPanes = true;
        const r = document.querySelector('[data-restoring]');
        if (r) saw.restoring = r.textContent.trim();
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(app.base + '/#/terminal');
    const rail = page.locator('aside');
    const restoring = rail.locator('[data-restoring]');
    const panes = page.locator('[data-pane]');
    await until('the Restoring line or the panes', async () => (await restoring.count()) > 0 || (await panes.count()) > 0, 30000);
    if (await restoring.count()) await shot('terminal-restoring');
    await until('both restored panes in the rail', async () => (await panes.count()) === 2, 30000);
    const saw = await page.evaluate(() => window.__railSaw);
    assert(!saw.noPanes, 'the rail said "No panes yet" while two panes were being restored');
    assert(!saw.restoring || saw.restoring === 'Restoring 2 panes from your last session…', `the Restoring line: ${saw.restoring}`);
    assert((await restoring.count()) === 0, 'the Restoring line stays after the panes arrived');
  } finally {
    await app.quit();
  }
}
