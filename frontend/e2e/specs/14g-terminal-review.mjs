import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall } from '../lib.mjs';

// Review, comments and Finish of a pane on its own branch, with the REAL
// Claude Code against the fake model. The repository "cafe" (main: menu.js)
// gets a pane on osf/review-me; Claude writes RELEASE-NOTES.md. Checks:
// - the pane's Review tab lists the files changed since main with
//   "+N −M", and draws menu.js's change highlighted, unified and side by
//   side;
// - a comment on line 1 of RELEASE-NOTES.md is kept (a reload shows it, and
//   so does the Review the pane's Sessions card opens);
//   "Send to agent" types it as one message (file, line, text) that is the
//   next request Claude Code sends to the model; sent while Claude works, the
//   comments are queued and go once it is idle, after the answer it worked on;
// - Finish with a conflicting commit on main shows the conflict and
//   changes nothing; after main drops it, Squash merges the branch into main
//   and the person's checkout moves with it; Archive closes the pane and
//   removes the worktree, and the branch stays.
const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;

export default async function ({ page, base, home, tmp, env, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);

  const repo = join(tmp, 'review', 'cafe');
  mkdirSync(repo, { recursive: true });
  const gitEnv = { ...env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
  const git = (...args) => execFileSync('git', ['-C', repo, ...args], { env: gitEnv }).toString().trim();
  const menu = 'export function menu() {\n  // What the cafe serves today.\n  return ["tea", "coffee"];\n}\n';
  writeFileSync(join(repo, 'menu.js'), menu);
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: gitEnv });
  git('add', '-A');
  git('commit', '-q', '-m', 'first');

  // The person's git identity, which Finish commits the agent's work with.
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = E2E Person\n\temail = person@example.invalid\n');
  const worktree = join(tmp, 'review', 'cafe.osf-worktrees', 'review-me');
  const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
  state.projects[worktree] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(state, null, 2));

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const info = await goCall(page, 'terminal.Service.Create', { dir: repo, command: 'claude', cols: 100, rows: 30, branch: { name: 'review-me', base: 'main' } });
  const id = info.id;
  assert(info.dir === worktree && info.branch?.name === 'osf/review-me', `pane: ${JSON.stringify(info)}`);
  await page.goto(base + `/#/terminal?pane=${id}`);
  const view = await page.waitForSelector(`[data-pane-view="${id}"]`);
  let archived = false;
  try {
    await until('Claude Code to be ready', async () => ready.test(await xtermText(page, id)), 45000);
    assert((await fake('/_testkit/push?scenario=worktree', { method: 'POST' })).status === 204, 'push worktree');
    await view.click();
    await page.keyboard.type('Write the release notes');
    await until('the request to be typed', async () => (await xtermText(page, id)).includes('Write the release notes'));
    await page.keyboard.press('Enter');
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
    // The person's own edit in the worktree, to see highlighting.
    writeFileSync(join(worktree, 'menu.js'), menu.replace('["tea", "coffee"]', '["tea", "coffee", "cake"]'));

    await shot('review-pane');
    // The Review tab.
    const tab = page.locator(`[data-review-tab="${id}"]`);
    await until('the Review tab to count both files', async () => (await tab.textContent()).replace(/\s+/g, ' ').includes('osf/review-me +2 −1'), 20000);
    await tab.click();
    const review = page.locator(`[data-review="${id}"]`);
    await review.waitFor();
    await until('the totals', async () => (await review.locator('[data-review-totals]').textContent()) === '+2 −1 in 2 files');
    const notes = review.locator('[data-review-file="RELEASE-NOTES.md"]');
    assert((await notes.locator('header').textContent()).replace(/\s+/g, ' ').includes('RELEASE-NOTES.md added +1 −0'), 'the new file with its counts');
    const menuFile = review.locator('[data-review-file="menu.js"]');
    assert((await menuFile.locator('.r.del .c').textContent()).includes('return ["tea", "coffee"];'), 'the removed line');
    assert((await menuFile.locator('.r.add .c').textContent()).includes('"cake"'), 'the added line');
    await until('menu.js to be highlighted', async () => (await menuFile.locator('.r.add .c .hljs-keyword').count()) > 0 && (await menuFile.locator('.hljs-comment').count()) > 0);
    await shot('review-unified');
    await review.getByText('Side by side').click();
    await until('side-by-side rows', async () => (await menuFile.locator('.c.del').count()) === 1 && (await menuFile.locator('.c.add').count()) === 1);
    await shot('review-split');
    await review.getByText('Unified').click();

    // A comment on line 1 of the notes, kept across a reload.
    await notes.locator('.r[data-line="new:1"] button.ln').first().click();
    const box = review.getByRole('form', { name: 'Comment on RELEASE-NOTES.md line 1' });
    await box.locator('textarea').fill('Say which Friday, with the date');
    await box.getByRole('button', { name: 'Add comment' }).click();
    await until('the comment under its line', async () => (await notes.locator('[data-comment]').count()) === 1);
    await page.reload();
    await page.locator(`[data-review-tab="${id}"]`).click();
    await until('the comment after a reload', async () => (await page.locator(`[data-review="${id}"] [data-comment]`).count()) === 1 && (await page.locator('[data-review-comments]').textContent()).includes('1 open comment'));
    await shot('review-comment');
    // The Sessions card of the pane opens its Review.
    await page.goto(base + '/#/sessions');
    await page.locator(`[data-card-review="terminal/${id}"]`).click();
    await page.locator(`[data-review="${id}"] [data-comment]`).waitFor();

    // Send to agent: one message, the next request Claude sends.
    const before = (await (await fake('/_testkit/requests')).json()).length;
    assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent('I will name the date.'), { method: 'POST' })).status === 204, 'push say');
    await page.getByRole('button', { name: 'Send to agent' }).click();
    await until('the send to be confirmed', async () => ((await page.locator('[data-review-sent]').textContent().catch(() => '')) ?? '').includes('Sent 1 comment to the agent as one message.'));
    const want = 'Review comments on osf/review-me — please address each: (1) RELEASE-NOTES.md:1 — Say which Friday, with the date.';
    const sent = await until('the comments in the next request to the model', async () => {
      const reqs = await (await fake('/_testkit/requests')).json();
      return reqs.slice(before).find((r) => r.last.includes(want));
    }, 30000).catch(async (e) => {
      const reqs = await (await fake('/_testkit/requests')).json();
      throw new Error(`${e.message}\n${JSON.stringify(reqs.slice(before).map((r) => r.last.slice(0, 400)))}\n${await xtermText(page, id)}`);
    });
    assert(sent, 'the message reached the model');
    await page.locator('[data-review-tab]').waitFor();
    await page.getByRole('tab', { name: 'Terminal' }).click();
    const screen = async () => (await goCall(page, 'terminal.Service.ScreenText', id)).join('\n');
    await until("Claude's answer to the comments", async () => (await screen()).includes('I will name the date.'), 30000).catch(async (e) => {
      throw new Error(`${e.message}\n${await screen()}`);
    });
    assert((await page.locator(`[data-review-tab="${id}"]`).count()) === 1, 'the tab stays');
    await page.locator(`[data-review-tab="${id}"]`).click();
    await until('the comment marked sent, kept until resolved', async () => (await page.locator(`[data-review="${id}"] [data-comment]`).textContent()).includes('sent to the agent'));

    await page.locator(`[data-review="${id}"] [data-comment]`).first().getByRole('button', { name: 'Resolve' }).click();
    await until('the comment resolved', async () => (await page.locator(`[data-review="${id}"] [data-comment]`).count()) === 0);

    // While Claude works, Send to agent queues the comments; they go as one
    // message once it is idle, after the answer it was working on.
    assert((await fake('/_testkit/push?scenario=say&delay=6s&text=' + encodeURIComponent('Thought it over.'), { method: 'POST' })).status === 204, 'push slow say');
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await page.locator(`[data-pane-view="${id}"]`).click();
    await page.keyboard.type('Think it over');
    await until('the request to be typed', async () => (await xtermText(page, id)).includes('Think it over'));
    await page.keyboard.press('Enter');
    await until('Claude to be working', async () => (await page.locator(`[data-pane="${id}"]`).getAttribute('data-state')) === 'working', 20000);
    assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent('Cake only on Fridays then.'), { method: 'POST' })).status === 204, 'push say');
    await page.locator(`[data-review-tab="${id}"]`).click();
    await page.locator(`[data-review="${id}"] [data-review-file="menu.js"] .r[data-line="new:3"] button.ln`).first().click();
    const box2 = page.getByRole('form', { name: 'Comment on menu.js line 3' });
    await box2.locator('textarea').fill('Keep cake for Fridays only');
    await box2.getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('button', { name: 'Send to agent' }).click();
    await until('the comments to be queued', async () => ((await page.locator('[data-review-queued]').textContent().catch(() => '')) ?? '').includes('Queued'));
    await shot('review-queued');
    const want2 = 'Review comments on osf/review-me — please address each: (1) menu.js:3 — Keep cake for Fridays only.';
    await until('the queued comments to reach the model after the answer', async () => {
      const reqs = await (await fake('/_testkit/requests')).json();
      const think = reqs.findIndex((r) => r.last.includes('Think it over'));
      const queued = reqs.findIndex((r) => r.last.includes(want2));
      return think >= 0 && queued > think;
    }, 40000);
    await until('the queue to empty', async () => (await page.locator('[data-review-queued]').count()) === 0);
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await until("Claude's answer to the queued comments", async () => {
      const t = await screen();
      return t.includes('Thought it over.') && t.includes('Cake only on Fridays then.') && t.indexOf('Thought it over.') < t.indexOf('Cake only on Fridays then.');
    }, 30000);
    await page.locator(`[data-review-tab="${id}"]`).click();

    // Finish: a conflicting commit on main shows the conflict, nothing changes.
    writeFileSync(join(repo, 'menu.js'), menu.replace('["tea", "coffee"]', '["tea", "juice"]'));
    git('commit', '-qam', 'juice on the menu');
    const mainBefore = git('rev-parse', 'main');
    const branchBefore = git('rev-parse', 'osf/review-me');
    await page.getByRole('button', { name: 'Finish…' }).click();
    const finish = page.getByRole('region', { name: 'Finish' });
    await until('the plan', async () => (await finish.locator('[data-finish-plan]').textContent().catch(() => '')).includes('2 files the agent has not committed'));
    await finish.getByRole('button', { name: 'Merge into main' }).click();
    const conflicts = finish.locator('[data-finish-conflicts]');
    await conflicts.waitFor({ timeout: 30000 }).catch(async (e) => {
      throw new Error(`${e.message}\n${await page.locator(`[data-review="${id}"]`).textContent()}`);
    });
    const ctext = await conflicts.textContent();
    assert(ctext.includes('1 file could not be merged into main.') && ctext.includes('Nothing was changed') && ctext.includes('menu.js') && ctext.includes('<<<<<<<'), `conflicts: ${ctext}`);
    assert(git('rev-parse', 'main') === mainBefore && git('rev-parse', 'osf/review-me') === branchBefore && git('status', '--porcelain') === '', 'a conflict should change nothing');
    await shot('review-finish-conflict');
    await finish.getByRole('button', { name: 'Back' }).click();

    // Main drops its commit; Squash merges, the checkout moves with it.
    git('reset', '-q', '--hard', 'HEAD~1');
    await finish.locator('input[name="merge-mode"][value="squash"]').check();
    await finish.locator('input[name="merge-message"]').fill('Release notes and cake');
    await finish.getByRole('button', { name: 'Squash into main' }).click();
    await until('the merge', async () => (await finish.locator('[data-finish-merged]').textContent().catch(() => '')).includes('Merged osf/review-me into main as'));
    assert(git('log', '-1', '--format=%s', 'main') === 'Release notes and cake' && existsSync(join(repo, 'RELEASE-NOTES.md')) && readFileSync(join(repo, 'menu.js'), 'utf8').includes('cake'), 'main should have the squash, and the checkout its files');
    assert(git('status', '--porcelain') === '', "the person's checkout should be clean");
    await shot('review-finish-merged');
    await finish.getByRole('button', { name: 'Archive worktree' }).click();
    await until('the pane to close', async () => !(await goCall(page, 'terminal.Service.List')).some((p) => p.id === id));
    archived = true;
    assert(!existsSync(worktree), 'the worktree should be removed');
    assert(git('branch', '--list', 'osf/review-me') !== '', 'the branch should stay');
  } finally {
    if (!archived) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
