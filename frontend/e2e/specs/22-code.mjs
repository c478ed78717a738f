import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// The Code screen with the REAL Claude Code against the scripted fake
// model. Checks:
// - the sidebar has Code; with no repository picked the screen says runs
//   use the most recently added Local Folder, and that folder (not a git repository)
//   is refused both as the repository and for "Enable for this workspace",
//   with a message saying it is not a git repository;
// - picking the repository says "Runs use <repo> (the repository picked
//   here)" and the switch turns on;
// - a new chat's "Isolate runs on a git branch" starts checked, and its
//   run (in the repository, which the new chat names) writes on its own branch: the Code screen lists it with the branch,
//   the changed file and its diff; the user's checkout is untouched;
// - Keep marks it kept and leaves the branch; Discard (confirmed) removes
//   the run from the list and the branch from the repository;
// - the open chat reads "As the workspace (on)" and can be turned off for
//   itself.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const push = async (scenario) => assert((await fetch(seed.url + `/_testkit/push?scenario=${scenario}`, { method: 'POST' })).status === 204, `push ${scenario}`);
  const repo = join(tmp, 'code-repo');
  const plain = join(tmp, 'code-plain');
  mkdirSync(repo, { recursive: true });
  mkdirSync(plain, { recursive: true });
  const git = (...a) => execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@osfoundry.invalid', '-c', 'commit.gpgsign=false', '-C', repo, ...a], { encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'README.md'), '# Shop\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'Start');

  await page.goto(base + '/#/terminal');
  await page.getByRole('button', { name: 'Connections' }).waitFor();
  const before = await goCall(page, 'roles.Binding.Folders');
  const roles = await goCall(page, 'roles.Binding.Roles');
  const workerModel = roles.find((r) => r.name === 'Worker');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  const repoFolder = await goCall(page, 'roles.Binding.AddFolder', repo);
  const plainFolder = await goCall(page, 'roles.Binding.AddFolder', plain); // now the most recently added Local Folder
  try {
    // --- The screen, and a folder outside git refused ---
    await page.locator('[data-route="/code"]').click();
    await page.getByRole('heading', { name: 'Code', level: 1 }).waitFor();
    const uses = page.locator('[data-uses]');
    await until('the folder runs use', async () => (await uses.textContent()) === `Runs use ${plain} (the most recently added Local Folder)`);
    assert((await page.locator(`[data-repo="${plain}"]`).innerText()).includes('not a git repository'), 'the plain folder is marked as not a git repository');
    const toggle = page.getByRole('switch', { name: 'Enable for this workspace' });
    await toggle.click();
    const alert = page.getByRole('alert');
    await until('the refusal to enable', async () => ((await alert.textContent().catch(() => '')) ?? '').includes(`Isolation cannot be turned on: ${plain} is not a git repository`));
    assert(!(await toggle.isChecked()), 'the switch stays off');
    await page.locator(`[data-repo="${plain}"] input`).click();
    await until('the refusal to pick it', async () => ((await alert.textContent().catch(() => '')) ?? '').startsWith(`${plain} is not a git repository: run \`git init\` there`));
    await until('the choice back on following Settings', async () => !(await page.locator(`[data-repo="${plain}"] input`).isChecked()));

    // --- Pick the repository and enable ---
    await page.locator(`[data-repo="${repo}"] input`).click();
    await until('the repository in use', async () => (await uses.textContent()) === `Runs use ${repo} (the repository picked here)`);
    await toggle.click();
    await until('isolation on', async () => toggle.isChecked());
    await page.getByText(`Every Codex run and every Claude run that writes gets its own branch and worktree in ${repo}.`, { exact: false }).waitFor();
    assert((await alert.count()) === 0, 'no error once a repository is picked');
    await shot('code-enabled');

    // --- A chat run on its own branch ---
    await push('worktree');
    await page.goto(base + '/#/chat');
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
    const box = page.getByLabel('Isolate runs on a git branch');
    await until('the checkbox to follow the workspace', async () => box.isChecked());
    assert((await page.locator('.folder code').textContent()) === repo, `the new chat names the repository: ${await page.locator('.folder code').textContent()}`);
    await page.getByLabel('Task').fill('Write the release notes in the shop');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.locator('article[data-run]').waitFor();
    const runId = await page.locator('article[data-run]').getAttribute('data-run');

    await page.locator('[data-route="/code"]').click();
    const card = page.locator(`[data-code-run="${runId}"]`);
    await card.waitFor({ timeout: 30000 });
    await until('the run to be ready for review', async () => (await card.getAttribute('data-status')) === 'To review', 90000);
    const branch = (await card.locator('[data-branch]').textContent()).trim();
    assert(branch === `osf/run-${runId}`, `the card names the run's branch: ${branch}`);
    assert((await card.innerText()).includes(repo), 'the card names the repository');
    const file = card.locator('[data-file="RELEASE-NOTES.md"]');
    assert((await file.innerText()).includes('+1'), `the changed file with its count: ${await file.innerText()}`);
    assert((await card.innerText()).includes('1 file changed, +1 −0'), 'the summary of the changes');
    await file.getByRole('button').click();
    await until('the file diff', async () => ((await file.locator('[data-diff] .row.add').textContent().catch(() => '')) ?? '').includes('Ship the beta on Friday.'));
    assert(git('show', `${branch}:RELEASE-NOTES.md`) === 'Ship the beta on Friday.', 'the branch holds the file');
    assert(!existsSync(join(repo, 'RELEASE-NOTES.md')), "the user's checkout is untouched");
    assert(git('rev-parse', '--abbrev-ref', 'HEAD') === 'main' && git('status', '--porcelain') === '', 'the checkout stays on main, clean');
    const titled = await page.evaluate(() => [...document.querySelectorAll('[title]')].map((e) => e.outerHTML.slice(0, 90)));
    assert(titled.length === 0, `no native title tooltips on the Code screen: ${titled.join(' | ')}`);
    await shot('code-run');

    // --- Keep, then Discard ---
    await card.getByRole('button', { name: 'Keep' }).click();
    await until('the run kept', async () => (await card.getAttribute('data-status')) === 'Kept');
    assert(git('branch', '--list', branch) !== '', 'Keep leaves the branch');
    assert(git('worktree', 'list').split('\n').length === 1, 'no worktree is left');
    await card.getByRole('button', { name: 'Discard' }).click();
    await card.getByRole('status').filter({ hasText: `Delete branch ${branch} and its changes?` }).waitFor();
    await card.getByRole('button', { name: 'Discard' }).click();
    await card.waitFor({ state: 'detached' });
    assert(git('branch', '--list', branch) === '', 'Discard deletes the branch');

    // --- The open chat follows the workspace, and can turn it off for itself ---
    await page.goto(base + '/#/chat');
    const chatId = (await goCall(page, 'chat.Binding.GetRun', runId)).chatId;
    await page.locator(`[data-chat="${chatId}"]`).click();
    const own = page.getByLabel('Own branch per run');
    await own.waitFor();
    assert((await own.inputValue()) === '' && (await own.locator('option:checked').textContent()) === 'As the workspace (on)', 'the chat follows the workspace, which is on');
    assert((await page.locator('[data-isolation]').getAttribute('data-isolation')) === 'on', 'its next run gets a branch');
    await own.selectOption('off');
    await until('the chat turned off', async () => (await page.locator('[data-isolation]').getAttribute('data-isolation')) === 'off');
    assert((await goCall(page, 'code.Binding.ChatIsolation', chatId)).mode === 'off', 'the choice is saved');
  } finally {
    // Later specs find the folders and roles as they were, without isolation.
    await goCall(page, 'code.Binding.SetEnabled', '', false).catch(() => {});
    await goCall(page, 'code.Binding.SetRepo', '', '').catch(() => {});
    for (const f of [repoFolder, plainFolder]) if (!before.some((b) => b.path === f.path)) await goCall(page, 'roles.Binding.RemoveFolder', f.id).catch(() => {});
    for (const f of [...before].reverse()) await goCall(page, 'roles.Binding.AddFolder', f.path).catch(() => {});
    await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', !workerModel || workerModel.default ? '' : workerModel.model).catch(() => {});
  }
}
