import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Which Local Folder runs use: one rule, said the same way on the Code
// screen and in Settings, and each folder listed once however it was added.
// Checks:
// - a folder added as "<path>/", through a symlink and as itself is one
//   Local Folder in Settings, and one choice on the Code screen;
// - the Code screen lists no path twice (its default choice names the rule,
//   not a second copy of the folder);
// - both screens name the rule "the most recently added Local Folder", and
//   the Code screen says which folder that is now.
export default async function ({ page, base, tmp, shot }) {
  const site = join(tmp, 'folders-site');
  const link = join(tmp, 'folders-site-link');
  mkdirSync(site, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', site]);
  symlinkSync(site, link);
  const forms = [site, site + '/', link];

  await page.goto(base + '/#/settings');
  const added = [];
  try {
    for (const p of [site + '/', link, site]) added.push((await goCall(page, 'roles.Binding.AddFolder', p)).id);

    // Settings: one row for the folder, and the rule.
    await page.reload();
    const rows = page.locator('[data-folder]');
    await rows.first().waitFor();
    const listed = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-folder')))).filter((p) => forms.includes(p));
    assert(JSON.stringify(listed) === JSON.stringify([site]), `Settings lists the folder once, as itself: ${JSON.stringify(listed)}`);
    const rule = (await page.locator('[data-folder-rule]').textContent()) ?? '';
    assert(rule.startsWith('Runs use the most recently added Local Folder'), `the rule in Settings: ${rule}`);
    await page.locator(`[data-folder="${site}"]`).scrollIntoViewIfNeeded();
    await shot('folders-settings');

    // The Code screen: each folder once, the same rule, the folder it is now.
    await page.goto(base + '/#/code');
    await page.getByRole('heading', { name: 'Code', level: 1 }).waitFor();
    const uses = page.locator('[data-uses]');
    await until('the folder runs use', async () => (await uses.textContent()) === `Runs use ${site} (the most recently added Local Folder)`);
    const paths = await page.locator('[role="radiogroup"][aria-label="Repository"]').evaluate((g) => [...g.querySelectorAll('label')].map((l) => l.textContent.match(/\/\S+/g) ?? []).flat());
    assert(new Set(paths).size === paths.length, `the Code screen lists a path twice: ${JSON.stringify(paths)}`);
    assert(paths.filter((p) => forms.includes(p)).length === 1, `the folder is one choice: ${JSON.stringify(paths)}`);
    const choice = (await page.locator('[role="radiogroup"] [data-folder-rule]').textContent()) ?? '';
    assert(choice === 'Follow Settings: the most recently added Local Folder', `the default choice: ${choice}`);
    assert((await page.locator(`[data-repo="${site}"]`).innerText()).includes('most recently added'), 'the folder in use is marked');
    await shot('folders-code');
  } finally {
    for (const id of added) await goCall(page, 'roles.Binding.RemoveFolder', id).catch(() => {});
  }
}
