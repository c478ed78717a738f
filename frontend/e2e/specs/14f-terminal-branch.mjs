import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall, openNewPaneForm } from '../lib.mjs';

// A pane on a new branch, with the REAL Claude Code against the fake model.
// The repository "shop" (main, an ignored .env, and .osfoundry/worktree.toml
// asking to copy .env and run a set-up command) gets a pane started from the
// New pane form with "On a new branch" ticked. Checks:
// - outside a repository "On a new branch" is off and says why; a name with
//   spaces is refused, saying to use dashes, and nothing starts;
// - for a repository the form says where the
//   worktree goes (shop.osf-worktrees/<name>, beside the repository), starts
//   from the current branch, and names the repository file the set-up comes
//   from;
// - the pane runs the set-up command in its worktree first (its output, with
//   the pane's OSF_PORT_OFFSET, is in the pane) and then Claude Code;
// - Claude writes a file: it lands in the worktree, never in the person's
//   checkout, and the rail entry and the Sessions card read
//   "osf/release-notes +1 −0";
// - the New pane form remembers the choice for this repository; your own
//   set-up refuses a glob leaving the repository, and the repository's file
//   wins over it per key;
// - closing the pane keeps the worktree and its branch.
const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;

export default async function ({ page, base, home, tmp, env, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);

  const repo = join(tmp, 'branch', 'shop');
  mkdirSync(join(repo, '.osfoundry'), { recursive: true });
  const gitEnv = { ...env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env: gitEnv }).toString().trim();
  writeFileSync(join(repo, 'app.js'), 'console.log("shop");\n');
  writeFileSync(join(repo, '.gitignore'), '.env\n');
  writeFileSync(join(repo, '.osfoundry', 'worktree.toml'), 'copy = [".env"]\nsetup = "echo installing-deps-at-offset-$OSF_PORT_OFFSET"\n');
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: gitEnv });
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
  writeFileSync(join(repo, '.env'), 'SHOP_KEY=local\n');

  // Claude Code trusts the worktree folder like the other specs' folders.
  const worktree = join(tmp, 'branch', 'shop.osf-worktrees', 'release-notes');
  const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
  state.projects[worktree] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(state, null, 2));

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const form = page.getByRole('form', { name: 'New pane' });
  await openNewPaneForm(page);
  // Outside a repository the choice is there but off, saying why.
  await form.locator('input[name="dir"]').fill(join(tmp, 'branch'));
  const problem = form.locator('[data-branch-problem]');
  await until('the form to say a new branch needs a repository', async () => (await problem.isVisible()) && (await problem.textContent()).includes('is not a git repository'));
  await form.locator('input[name="dir"]').fill(repo);
  await form.locator('input[name="command"]').fill('claude');
  const onBranch = form.getByRole('checkbox', { name: /On a new branch/ });
  await onBranch.waitFor();
  assert(!(await onBranch.isChecked()), '"On a new branch" should be off until chosen');
  await onBranch.check();
  // A name git cannot carry is refused with what to do, and nothing starts.
  await form.locator('input[name="branch-name"]').fill('release notes');
  const panesBefore = (await goCall(page, 'terminal.Service.List')).length;
  await form.getByRole('button', { name: 'Start' }).click();
  const banner = page.locator('.error.banner');
  await until('the refusal of a name with spaces', async () => (await banner.isVisible()) && (await banner.textContent()).includes('use dashes, e.g. release-notes'));
  assert((await goCall(page, 'terminal.Service.List')).length === panesBefore && !existsSync(join(tmp, 'branch', 'shop.osf-worktrees', 'release notes')), 'a refused name should start nothing');
  await form.locator('input[name="branch-name"]').fill('release-notes');
  assert((await form.locator('select[name="branch-base"]').inputValue()) === 'main', 'the base should default to the current branch');
  const where = await form.locator('[data-branch-where]').textContent();
  assert(where.includes(worktree) && where.includes('beside the repository'), `the form should say where the worktree goes: ${where}`);
  const setup = await form.locator('[data-branch-setup]').textContent();
  assert(setup.includes('.env') && setup.includes('installing-deps') && setup.includes('.osfoundry/worktree.toml (shared)'), `the form should say which set-up applies: ${setup}`);
  await shot('terminal-branch-form');
  await form.getByRole('button', { name: 'Start' }).click();

  const id = await until('the new pane', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.branch?.name === 'osf/release-notes')?.id);
  const view = await page.waitForSelector(`[data-pane-view="${id}"]`);
  const info = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id);
  assert(info.branch?.name === 'osf/release-notes' && info.branch.base === 'main' && info.dir === worktree, `pane: ${JSON.stringify(info)}`);
  try {
    await until('the set-up output in the pane', async () => (await xtermText(page, id)).includes(`installing-deps-at-offset-${info.branch.portOffset}`), 30000).catch(async (e) => {
      const screen = await goCall(page, 'terminal.Service.ScreenText', id).catch((err) => [String(err)]);
      throw new Error(`${e.message}\nthe view:\n${await xtermText(page, id)}\nthe pane's screen:\n${screen.join('\n')}`);
    });
    assert(readFileSync(join(worktree, '.env'), 'utf8') === 'SHOP_KEY=local\n', '.env should be copied into the worktree');
    await until('Claude Code to be ready', async () => ready.test(await xtermText(page, id)), 45000);

    assert((await fake('/_testkit/push?scenario=worktree', { method: 'POST' })).status === 204, 'push worktree');
    await view.click();
    await page.keyboard.type('Write the release notes');
    await until('the request to be typed', async () => (await xtermText(page, id)).includes('Write the release notes'));
    await page.keyboard.press('Enter');
    // Claude may ask before running the shell command (its permission mode
    // decides); the person says yes.
    let asked = false;
    await until("Claude's answer", async () => {
      const text = await xtermText(page, id);
      if (!asked && text.includes('Do you want to proceed?')) {
        asked = true;
        await page.keyboard.press('Enter');
      }
      return text.includes('Wrote RELEASE-NOTES.md.');
    }, 45000).catch(async (e) => {
      throw new Error(`${e.message}\n${await xtermText(page, id)}`);
    });
    assert(existsSync(join(worktree, 'RELEASE-NOTES.md')), 'the file should be in the worktree');
    assert(!existsSync(join(repo, 'RELEASE-NOTES.md')) && git('status', '--porcelain') === '' && git('symbolic-ref', '--short', 'HEAD') === 'main', "the person's checkout should be untouched");

    const railBranch = page.locator(`[data-pane-branch="${id}"]`);
    await until('the rail to show the branch and +1 −0', async () => (await railBranch.textContent()).replace(/\s+/g, ' ').trim() === 'osf/release-notes +1 −0', 20000);
    await shot('terminal-branch-rail');

    await page.goto(base + '/#/sessions');
    const card = page.locator(`[data-card-branch="terminal/${id}"]`);
    await card.waitFor();
    await until('the card to show the branch and +1 −0', async () => (await card.textContent()).replace(/\s+/g, ' ').trim() === 'osf/release-notes +1 −0');
    await page.locator(`[data-card="terminal/${id}"]`).scrollIntoViewIfNeeded();
    await shot('terminal-branch-card');

    // The form remembers the choice for this repository.
    await page.goto(base + '/#/terminal');
    await page.getByRole('button', { name: '+ New pane' }).click();
    await form.locator('input[name="dir"]').fill(repo);
    await until('the form to remember "On a new branch"', async () => (await onBranch.isVisible()) && (await onBranch.isChecked()));

    // Your own set-up: a glob leaving the repository is refused; a command
    // is kept, and the repository's file still wins for that key.
    await form.getByRole('button', { name: 'Your set-up…' }).click();
    await form.locator('textarea[name="setup-copy"]').fill('../secrets/*');
    await form.getByRole('button', { name: 'Save set-up' }).click();
    await until('the escaping glob to be refused', async () => ((await form.getByRole('alert').textContent().catch(() => '')) ?? '').includes('reaches outside the repository'));
    await form.locator('textarea[name="setup-copy"]').fill('config/local.json');
    await form.locator('input[name="setup-command"]').fill('echo personal');
    await form.getByRole('button', { name: 'Save set-up' }).click();
    await form.getByRole('button', { name: 'Your set-up…' }).waitFor();
    const after = await form.locator('[data-branch-setup]').textContent();
    assert(after.includes('installing-deps') && !after.includes('echo personal') && after.includes('.osfoundry/worktree.toml (shared)'), `the repository's file should win per key: ${after}`);
    await shot('terminal-branch-setup');
  } finally {
    await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
  assert(existsSync(join(worktree, 'RELEASE-NOTES.md')) && git('branch', '--list', 'osf/release-notes') !== '', 'closing the pane should keep the worktree and its branch');
}
