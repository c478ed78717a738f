import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall, openNewPaneForm } from '../lib.mjs';
import { startGitea } from '../gitea.mjs';

// Three agents on three branches of one repository, from the app alone:
// the REAL Claude Code against the fake model in three panes started from
// the New pane form "On a new branch", and a REAL Gitea (the pinned build
// of build/scripts/gitea.sh, started here with a throw-away admin) as the
// repository's origin. Each agent writes its own file: NOTES.md on
// osf/notes, PRICES.md on osf/prices, HOURS.md on osf/hours (committed).
// Checks:
// - no pane's file is in another pane's worktree, nor in the person's
//   checkout;
// - Review of osf/notes lists NOTES.md; a comment on its line 1 sent to the
//   agent is in Claude Code's next request to the model;
// - Finish of osf/prices merges it into main: main and the checkout get
//   PRICES.md and nothing of the other two branches;
// - Finish of osf/hours pushes it and opens a pull request on Gitea: the
//   dialog asks what runs on the unknown host (Gitea), takes the pasted
//   admin token and says where it is kept (the OS keychain, or without one
//   a 0600 file in the app's data folder); Gitea's API then has the open
//   request with HOURS.md only, and the pane's Sessions card shows
//   "#N open";
// - Settings → Forges lists the host with its forge and where its token is,
//   and Remove takes the token back out.
const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;

export default async function ({ page, base, home, tmp, env, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const requests = async () => (await fake('/_testkit/requests')).json();

  const forge = await startGitea(join(tmp, 'gitea'));
  const panes = [];
  try {
    // The repository "bakery", its origin a public repository on Gitea.
    await forge.api('POST', '/user/repos', { name: 'bakery', default_branch: 'main', private: false });
    const top = join(tmp, 'three');
    const repo = join(top, 'bakery');
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = E2E Person\n\temail = person@example.invalid\n');
    const gitEnv = { ...env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
    const git = (dir, ...args) => execFileSync('git', ['-C', dir, ...args], { env: gitEnv }).toString().trim();
    writeFileSync(join(repo, 'README.md'), '# Bakery\n\nBread, buns and cake.\n');
    execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: gitEnv });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    const origin = `${forge.url}/${forge.admin.name}/bakery.git`;
    git(repo, 'remote', 'add', 'origin', origin);
    // The first push carries the admin's token for this one command only.
    const basic = Buffer.from(`${forge.admin.name}:${forge.admin.token}`).toString('base64');
    git(repo, '-c', `http.extraHeader=Authorization: Basic ${basic}`, 'push', '-q', 'origin', 'main');
    git(repo, 'fetch', '-q', 'origin');
    git(repo, 'remote', 'set-head', 'origin', 'main');

    const names = { notes: 'NOTES.md', prices: 'PRICES.md', hours: 'HOURS.md' };
    const worktree = (name) => join(top, 'bakery.osf-worktrees', name);
    const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
    for (const n of Object.keys(names)) state.projects[worktree(n)] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(state, null, 2));

    // Three panes from the New pane form, each on its own new branch.
    await page.goto(base + '/#/terminal');
    await page.waitForSelector('.rail-col');
    for (const n of Object.keys(names)) {
      const form = page.getByRole('form', { name: 'New pane' });
      await openNewPaneForm(page);
      await form.locator('input[name="dir"]').fill(repo);
      // Claude asks before each shell command (its auto mode would send the
      // commit to a safety check the fake model does not answer); the person
      // says yes.
      await form.locator('input[name="command"]').fill('claude --permission-mode default');
      await form.getByRole('checkbox', { name: /On a new branch/ }).check();
      await form.locator('input[name="branch-name"]').fill(n);
      await until('the base to be read', async () => (await form.locator('select[name="branch-base"]').inputValue()) === 'main');
      await form.getByRole('button', { name: 'Start' }).click();
      const id = await until(`the pane on osf/${n}`, async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.branch?.name === `osf/${n}`)?.id).catch(async (e) => {
        throw new Error(`${e.message}\nform: ${(await form.textContent().catch(() => '(gone)')).replace(/\s+/g, ' ')}\npanes: ${JSON.stringify(await goCall(page, 'terminal.Service.List'))}`);
      });
      // The pane is listed a moment before the form hears back and closes:
      // opening the next form before then would find this one still there.
      await form.waitFor({ state: 'hidden', timeout: 30000 });
      panes.push({ id, name: n });
    }
    const pane = Object.fromEntries(panes.map((p) => [p.name, p.id]));
    for (const p of panes) {
      const info = (await goCall(page, 'terminal.Service.List')).find((x) => x.id === p.id);
      assert(info.dir === worktree(p.name) && info.branch.base === 'main', `pane ${p.name}: ${JSON.stringify(info)}`);
    }

    // Each agent writes its file, one after the other (the fake model
    // answers in order); the HOURS.md agent commits its work.
    for (const p of panes) {
      await page.goto(base + `/#/terminal?pane=${p.id}`);
      const view = await page.waitForSelector(`[data-pane-view="${p.id}"]`);
      await until(`Claude Code to be ready in ${p.name}`, async () => ready.test(await xtermText(page, p.id)), 45000);
      const q = new URLSearchParams({ scenario: 'write', file: names[p.name], text: `All about ${p.name}.` });
      if (p.name === 'hours') q.set('commit', 'Add the opening hours');
      assert((await fake('/_testkit/push?' + q, { method: 'POST' })).status === 204, 'push write');
      await view.click();
      const ask = `Write ${names[p.name]}`;
      await page.keyboard.type(ask);
      await until('the request to be typed', async () => (await xtermText(page, p.id)).includes(ask));
      await page.keyboard.press('Enter');
      // The person says yes to "Do you want to proceed?" and goes on past
      // Claude Code's one-time notice about its auto mode (shown once per
      // HOME to the first session that asks the model). An Enter pressed as
      // the menu is still being drawn can be lost: one still on screen
      // 3 s later is answered again, in the pane's own terminal.
      let answeredAt = 0;
      await until(`${p.name}: Claude's answer`, async () => {
        const text = await xtermText(page, p.id);
        const screen = (await goCall(page, 'terminal.Service.ScreenText', p.id)).join('\n'); // what shows now
        const waits = screen.includes('Do you want to proceed?') || screen.includes('Enter to continue · Esc to cancel');
        if (waits && Date.now() - answeredAt > 3000) {
          answeredAt = Date.now();
          await page.locator(`[data-pane-view="${p.id}"] .xterm-helper-textarea`).focus();
          await page.keyboard.press('Enter');
        }
        return text.includes(`Wrote ${names[p.name]}.`);
      }, 45000).catch(async (e) => {
        throw new Error(`${e.message}\n${await xtermText(page, p.id)}`);
      });
    }
    // No pane's file is anywhere but its own worktree.
    const where = () => {
      const out = {};
      for (const [n, f] of Object.entries(names)) {
        out[f] = [...Object.keys(names).filter((w) => existsSync(join(worktree(w), f))), ...(existsSync(join(repo, f)) ? ['checkout'] : [])];
      }
      return out;
    };
    let found = where();
    for (const [n, f] of Object.entries(names)) assert(found[f].join() === n, `${f} is in ${found[f].join(', ')}; only ${n}'s worktree should have it`);
    assert(git(repo, 'status', '--porcelain') === '' && git(repo, 'symbolic-ref', '--short', 'HEAD') === 'main', "the person's checkout should be untouched");
    assert(git(worktree('hours'), 'log', '-1', '--format=%s') === 'Add the opening hours', 'the hours agent should have committed');

    // 1. Review osf/notes and send the agent a comment.
    await page.goto(base + `/#/terminal?pane=${pane.notes}`);
    const tab = page.locator(`[data-review-tab="${pane.notes}"]`);
    await until('the Review tab to count NOTES.md', async () => (await tab.textContent()).replace(/\s+/g, ' ').includes('osf/notes +1 −0'), 20000);
    await tab.click();
    const review = page.locator(`[data-review="${pane.notes}"]`);
    await until('the totals', async () => (await review.locator('[data-review-totals]').textContent().catch(() => '')) === '+1 −0 in 1 file');
    const file = review.locator('[data-review-file="NOTES.md"]');
    assert((await file.locator('.r.add .c').textContent()).includes('All about notes.'), 'the added line');
    await file.locator('.r[data-line="new:1"] button.ln').first().click();
    const box = review.getByRole('form', { name: 'Comment on NOTES.md line 1' });
    await box.locator('textarea').fill('Name the three breads');
    await box.getByRole('button', { name: 'Add comment' }).click();
    await until('the comment under its line', async () => (await file.locator('[data-comment]').count()) === 1);
    await shot('three-branches-review');
    const before = (await requests()).length;
    assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent('I will name them.'), { method: 'POST' })).status === 204, 'push say');
    await review.getByRole('button', { name: 'Send to agent' }).click();
    await until('the send to be confirmed', async () => ((await page.locator('[data-review-sent]').textContent().catch(() => '')) ?? '').includes('Sent 1 comment to the agent'));
    const want = 'Review comments on osf/notes — please address each: (1) NOTES.md:1 — Name the three breads.';
    await until('the comment in the next request to the model', async () => (await requests()).slice(before).some((r) => r.last.includes(want)), 30000).catch(async (e) => {
      throw new Error(`${e.message}\n${JSON.stringify((await requests()).slice(before).map((r) => r.last.slice(0, 300)))}`);
    });
    await until("Claude's answer to the comment", async () => (await goCall(page, 'terminal.Service.ScreenText', pane.notes)).join('\n').includes('I will name them.'), 30000);

    // 2. Merge osf/prices into main (Finish commits the agent's file).
    await page.goto(base + `/#/terminal?pane=${pane.prices}`);
    await page.locator(`[data-review-tab="${pane.prices}"]`).click();
    await page.getByRole('button', { name: 'Finish…' }).click();
    const finish = page.getByRole('region', { name: 'Finish' });
    await until('the plan', async () => (await finish.locator('[data-finish-plan]').textContent().catch(() => '')).includes('1 file the agent has not committed'));
    await finish.getByRole('button', { name: 'Merge into main' }).click();
    await until('the merge', async () => (await finish.locator('[data-finish-merged]').textContent().catch(() => '')).includes('Merged osf/prices into main as'), 30000);
    const onMain = git(repo, 'ls-tree', '-r', '--name-only', 'main').split('\n').sort().join(',');
    assert(onMain === 'PRICES.md,README.md', `main has ${onMain}`);
    assert(readFileSync(join(repo, 'PRICES.md'), 'utf8') === 'All about prices.\n' && git(repo, 'status', '--porcelain') === '', "the person's checkout should have PRICES.md and be clean");
    found = where();
    assert(found['NOTES.md'].join() === 'notes' && found['HOURS.md'].join() === 'hours', `after the merge: ${JSON.stringify(found)}`);
    await shot('three-branches-merged');

    // 3. Push osf/hours and open its pull request on Gitea.
    await page.goto(base + `/#/terminal?pane=${pane.hours}`);
    await page.locator(`[data-review-tab="${pane.hours}"]`).click();
    await page.getByRole('button', { name: 'Finish…' }).click();
    await page.getByRole('region', { name: 'Finish' }).locator('[data-open-pull-request]').click();
    const dialog = page.locator('[data-pr-dialog]');
    const unknown = dialog.locator('[data-pr-unknown-host]');
    await until('the question what runs on the host', async () => (await unknown.count()) > 0, 20000);
    assert((await unknown.textContent()).includes(forge.host), 'the host is not named');
    await unknown.getByLabel('Gitea or Forgejo').check();
    await unknown.locator('[data-pr-add-host]').click();
    await until('the plan on Gitea', async () => (await dialog.locator('[data-pr-forge]').textContent().catch(() => '')) === 'Gitea', 20000);
    assert((await dialog.locator('[data-pr-title-input]').inputValue()) === 'Add the opening hours', 'the drafted title');
    assert((await dialog.locator('[data-pr-uncommitted]').count()) === 0, 'the agent committed everything, yet the dialog says files are left out');
    assert(await dialog.locator('[data-pr-open]').isDisabled(), 'Push and open is offered without a token');
    // Where a pasted token goes: without a keychain (no D-Bus session, as
    // here), a 0600 file in the app's data folder, said on screen.
    const noKeychain = !env.DBUS_SESSION_BUS_ADDRESS;
    const tokenFile = join(env.OSFOUNDRY_HOME, 'forge-tokens');
    const hint = await dialog.locator('[data-pr-token]').textContent();
    if (noKeychain) assert(hint.includes(`kept in a file only you can read (${tokenFile})`), `where the token goes: ${hint}`);
    await dialog.locator('[data-pr-token-input]').fill(forge.admin.token);
    await dialog.locator('[data-pr-save-token]').click();
    await until('the token to be used', async () => ((await dialog.locator('[data-pr-login]').textContent().catch(() => '')) ?? '').includes('the token you pasted, kept in'), 20000);
    if (noKeychain) {
      assert((statSync(tokenFile).mode & 0o777) === 0o600, 'the token file is not 0600');
      assert(!git(repo, 'config', '--list').includes(forge.admin.token) && !git(worktree('hours'), 'config', '--list').includes(forge.admin.token), 'the token is in a git config');
    }
    await shot('three-branches-pr-dialog');
    await dialog.locator('[data-pr-open]').click();
    await until('the request to be open', async () => (await dialog.locator('[data-pr-opened]').count()) > 0 || (await dialog.locator('[data-pr-error]').count()) > 0, 60000);
    assert((await dialog.locator('[data-pr-error]').count()) === 0, `opening failed: ${await dialog.locator('[data-pr-error]').textContent().catch(() => '')}`);
    const pulls = await forge.api('GET', `/repos/${forge.admin.name}/bakery/pulls?state=all`);
    assert(pulls.length === 1, `Gitea has ${pulls.length} pull requests`);
    const pr = pulls[0];
    assert(pr.state === 'open' && pr.head.ref === 'osf/hours' && pr.base.ref === 'main' && pr.title === 'Add the opening hours', `on Gitea: ${JSON.stringify({ state: pr.state, head: pr.head.ref, base: pr.base.ref, title: pr.title })}`);
    assert((await dialog.locator('[data-pr-link]').textContent()) === pr.html_url, 'the dialog links the request');
    const files = (await forge.api('GET', `/repos/${forge.admin.name}/bakery/pulls/${pr.number}/files`)).map((f) => f.filename).join(',');
    assert(files === 'HOURS.md', `the request changes ${files}`);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The pane's card on the Sessions board shows the request.
    await page.goto(base + '/#/sessions');
    const card = page.locator(`[data-card-pr="terminal/${pane.hours}"]`);
    await until('the card to show the request', async () => ((await card.textContent().catch(() => '')) ?? '').replace(/\s+/g, ' ').trim() === `#${pr.number} open`, 20000);
    await card.scrollIntoViewIfNeeded();
    const chip = card.locator('.prstate');
    const [num, st] = [await card.boundingBox(), await chip.boundingBox()];
    assert(st.y - num.y < 8 && st.height < 20, `"#${pr.number} open" should read as one line: ${JSON.stringify({ num, st })}`);
    await shot('three-branches-card');

    // Nothing of one pane ever reached another's worktree or the checkout.
    found = where();
    assert(found['NOTES.md'].join() === 'notes' && found['HOURS.md'].join() === 'hours' && found['PRICES.md'].join() === 'prices,checkout', `at the end: ${JSON.stringify(found)}`);

    // Settings → Forges: the host, its forge, where the token is; Remove.
    await page.goto(base + '/#/settings');
    const row = page.locator(`[data-forge-token="${forge.host}"]`);
    await row.waitFor();
    const rowText = (await row.textContent()).replace(/\s+/g, ' ');
    const [listed] = await goCall(page, 'forge.Binding.PastedTokens');
    assert(listed?.host === forge.host && (!noKeychain || listed.where === `a file only you can read (${tokenFile})`), `listed: ${JSON.stringify(listed)}`);
    assert(rowText.includes('Gitea') && rowText.includes(`kept in ${listed.where}`), `the Settings row: ${rowText}`);
    await row.scrollIntoViewIfNeeded();
    await shot('three-branches-settings-forges');
    await row.getByRole('button', { name: `Remove the token for ${forge.host}` }).click();
    await page.locator('[data-forge-tokens-none]').waitFor();
    if (noKeychain) assert(!existsSync(tokenFile), 'the token file stays after Remove');
    const plan = await goCall(page, 'forge.Binding.Plan', worktree('hours'), 'osf/hours', 'main');
    assert(plan.tokenProblem.includes('paste a token'), `after Remove the token is still used: ${JSON.stringify(plan)}`);
  } finally {
    for (const p of panes) await goCall(page, 'terminal.Service.Close', p.id).catch(() => {});
    await forge.stop();
  }
}
