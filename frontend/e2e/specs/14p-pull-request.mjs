import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Push and open a pull request, from a pane's Finish panel. The repository
// "cafe" has its origin on github.com (never reached: nothing is opened
// here — opening on a real Gitea is backend/forge's and backend/connect's
// Go tests); the pane works on osf/pr-demo, which has one commit. Checks:
// - Finish offers "Push and open a pull request…", which opens the dialog;
// - the dialog names the forge (GitHub) and the repository, drafts the
//   title and description from the branch's commit, into main, and names
//   the file left uncommitted (not pushed);
// - with no gh login and no pasted token it says how to get one and the
//   open button stays off; Cancel closes it and nothing was pushed;
// - a remote on a host it does not know asks whether GitHub, GitLab or
//   Gitea runs there; the answer is kept and the plan names that forge.
export default async function ({ page, base, tmp, env, shot }) {
  const repo = join(tmp, 'pr', 'cafe');
  mkdirSync(repo, { recursive: true });
  const gitEnv = { ...env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
  const git = (dir, ...args) => execFileSync('git', ['-C', dir, ...args], { env: gitEnv }).toString().trim();
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: gitEnv });
  writeFileSync(join(repo, 'menu.md'), '# Menu\n\ntea, coffee\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  git(repo, 'remote', 'add', 'origin', 'https://github.com/osfoundry-e2e/cafe.git');
  git(repo, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  git(repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const { id } = await goCall(page, 'terminal.Service.Create', { dir: repo, command: 'bash --norc --noprofile', cols: 80, rows: 24, branch: { name: 'pr-demo', base: 'main' } });
  try {
    const worktree = git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice(9)).find((w) => w !== repo);
    assert(worktree, 'the pane has no worktree');
    writeFileSync(join(worktree, 'hours.md'), 'Open from 8 to 4.\n');
    git(worktree, 'add', 'hours.md');
    git(worktree, 'commit', '-q', '-m', 'Add the opening hours', '-m', 'Open from 8 to 4, every day but Sunday.');
    // Work not committed is not pushed: the dialog names it.
    writeFileSync(join(worktree, 'specials.md'), 'Cake on Fridays.\n');

    await page.goto(base + '/#/terminal?pane=' + id);
    await page.click(`[data-review-tab="${id}"]`);
    await page.getByRole('button', { name: 'Finish…' }).click();
    const finish = page.getByRole('region', { name: 'Finish' });
    await finish.locator('[data-open-pull-request]').click();

    const dialog = page.locator('[data-pr-dialog]');
    await until('the dialog to read the branch', async () => (await dialog.locator('[data-pr-forge]').count()) > 0, 20000);
    assert((await dialog.locator('[data-pr-forge]').textContent()) === 'GitHub', 'the forge is not named GitHub');
    assert((await dialog.textContent()).includes('https://github.com/osfoundry-e2e/cafe'), 'the repository page is not shown');
    const title = await dialog.locator('[data-pr-title-input]').inputValue();
    const body = await dialog.locator('[data-pr-body]').inputValue();
    const into = await dialog.locator('[data-pr-base]').inputValue();
    assert(title === 'Add the opening hours', `drafted title: ${title}`);
    assert(body === 'Open from 8 to 4, every day but Sunday.', `drafted body: ${body}`);
    assert(into === 'main', `target: ${into}`);
    const left = await dialog.locator('[data-pr-uncommitted]').textContent();
    assert(left.includes('1 file has changes not committed (specials.md)') && left.includes('not in this pull request'), `uncommitted: ${left}`);
    const token = await dialog.locator('[data-pr-token]').textContent();
    assert(token.includes('gh auth login') && token.includes('paste a token'), `token hint: ${token}`);
    assert(await dialog.locator('[data-pr-open]').isDisabled(), 'Push and open is offered without a token');
    await shot('pull-request-dialog');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await until('the dialog to close', async () => (await dialog.count()) === 0);
    assert(git(repo, 'for-each-ref', 'refs/remotes/origin/osf/pr-demo') === '', 'the branch was pushed');

    // A self-hosted forge: the dialog asks what runs there, and keeps it.
    git(repo, 'remote', 'set-url', 'origin', 'https://git.cafe.example/team/cafe.git');
    await finish.locator('[data-open-pull-request]').click();
    const unknown = dialog.locator('[data-pr-unknown-host]');
    await until('the unknown host question', async () => (await unknown.count()) > 0, 20000);
    assert((await unknown.textContent()).includes('git.cafe.example'), 'the host is not named');
    assert((await dialog.locator('#pr-title').textContent()) === 'Open a pull request', 'the title does not say what it opens');
    await unknown.getByLabel('Gitea or Forgejo').check();
    await shot('pull-request-unknown-host');
    await unknown.locator('[data-pr-add-host]').click();
    await until('the plan on the self-hosted forge', async () => (await dialog.locator('[data-pr-forge]').textContent().catch(() => '')) === 'Gitea', 20000);
    assert((await dialog.textContent()).includes('https://git.cafe.example/team/cafe'), 'the self-hosted repository page is not shown');
    const hosts = await goCall(page, 'forge.Binding.Hosts');
    assert(hosts.length === 1 && hosts[0].name === 'git.cafe.example' && hosts[0].kind === 'gitea', `kept hosts: ${JSON.stringify(hosts)}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
