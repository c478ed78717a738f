import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// "Send to agent" queued while the agent works survives a restart of the
// app. A second copy of the app (its own data folder) runs the REAL Claude
// Code against the fake model in a pane on osf/later; while Claude works on
// a slow answer the person comments on menu.md line 1 and presses Send to
// agent: the comments are queued. The person quits the app before Claude
// answers. Checks: after the restart the pane comes back, its Review says
// the comments are still queued, and once its Claude is idle they are the
// next request Claude sends to the model; the queue is then empty and the
// comment is marked sent.
const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;

export default async function ({ page, home, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const requests = async () => (await fake('/_testkit/requests')).json();

  const repo = join(tmp, 'queue', 'cafe');
  mkdirSync(repo, { recursive: true });
  const gitEnv = { ...env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' };
  writeFileSync(join(repo, 'menu.md'), '# Menu\n\ntea, coffee\n');
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env: gitEnv });
  execFileSync('git', ['-C', repo, 'add', '-A'], { env: gitEnv });
  execFileSync('git', ['-C', repo, 'commit', '-q', '-m', 'first'], { env: gitEnv });
  const worktree = join(tmp, 'queue', 'cafe.osf-worktrees', 'later');
  const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
  state.projects[worktree] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(state, null, 2));
  // A person's terminal has no API key for Claude to ask about (see 14b).
  const { ANTHROPIC_API_KEY: _, ...appEnv } = env;
  const data = join(tmp, 'data-queue');

  let app = await startApp(bin, appEnv, data);
  try {
    await page.goto(app.base + '/#/terminal');
    await page.waitForSelector('.rail-col');
    const { id } = await goCall(page, 'terminal.Service.Create', { dir: repo, command: 'claude', cols: 100, rows: 30, branch: { name: 'later', base: 'main' } });
    await page.goto(app.base + `/#/terminal?pane=${id}`);
    const view = await page.waitForSelector(`[data-pane-view="${id}"]`);
    await until('Claude Code to be ready', async () => ready.test(await xtermText(page, id)), 45000);
    // The person's own change on the branch, to comment on.
    writeFileSync(join(worktree, 'menu.md'), '# Menu\n\ntea, coffee, cake\n');

    // Claude works on a slow answer (longer than the rest of this run).
    assert((await fake('/_testkit/push?scenario=say&delay=300s&text=' + encodeURIComponent('Too late.'), { method: 'POST' })).status === 204, 'push slow say');
    await view.click();
    await page.keyboard.type('Think it over');
    await until('the request to be typed', async () => (await xtermText(page, id)).includes('Think it over'));
    await page.keyboard.press('Enter');
    await until('Claude to be working', async () => (await page.locator(`[data-pane="${id}"]`).getAttribute('data-state')) === 'working', 20000);
    await until('the pane to know its conversation', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id && p.session), 20000);
    // The slow answer is taken only once the request reaches the model
    // (Claude Code shows it is working before it sends): quitting earlier
    // would leave it for the comments' request after the restart.
    await until('the request to reach the model', async () => (await requests()).some((r) => r.last.includes('Think it over')), 30000);

    // Comment and Send to agent: queued.
    await page.locator(`[data-review-tab="${id}"]`).click();
    const review = page.locator(`[data-review="${id}"]`);
    await review.locator('[data-review-file="menu.md"] .r[data-line="new:3"] button.ln').first().click();
    const box = review.getByRole('form', { name: 'Comment on menu.md line 3' });
    await box.locator('textarea').fill('Cake only on Fridays');
    await box.getByRole('button', { name: 'Add comment' }).click();
    await review.getByRole('button', { name: 'Send to agent' }).click();
    await until('the comments to be queued', async () => ((await page.locator('[data-review-queued]').textContent().catch(() => '')) ?? '').includes('Queued'));

    // Quit while Claude still works; start again.
    assert(await app.quit(), 'the app should quit on SIGTERM');
    const before = (await requests()).length;
    assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent('Fridays only, noted.'), { method: 'POST' })).status === 204, 'push say');
    app = await startApp(bin, appEnv, data);
    await page.goto(app.base + `/#/terminal?pane=${id}`);
    await page.waitForSelector(`[data-pane-view="${id}"]`);
    const want = 'Review comments on osf/later — please address each: (1) menu.md:3 — Cake only on Fridays.';
    await until('the queued comments in the next request to the model', async () => (await requests()).slice(before).some((r) => r.last.includes(want)), 90000).catch(async (e) => {
      throw new Error(`${e.message}\n${JSON.stringify((await requests()).slice(before).map((r) => r.last.slice(0, 300)))}\n${await xtermText(page, id)}`);
    });
    const after = (await requests()).slice(before);
    assert(after.filter((r) => r.last.includes(want)).length === 1, 'the queued comments went more than once');
    await until("Claude's answer to the comments", async () => (await goCall(page, 'terminal.Service.ScreenText', id)).join('\n').includes('Fridays only, noted.'), 30000);
    await page.locator(`[data-review-tab="${id}"]`).click();
    await until('the comment marked sent, the queue empty', async () =>
      (await page.locator(`[data-review="${id}"] [data-comment]`).textContent().catch(() => '')).includes('sent to the agent') && (await page.locator('[data-review-queued]').count()) === 0);
    await shot('review-queue-after-restart');
    await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  } finally {
    await app.quit();
  }
}
