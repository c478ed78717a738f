import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall, xtermText } from '../lib.mjs';
import { claudeTranscript, escape, put, seeded, whichClaude } from '../seed/external-agents.mjs';

// Resume with a strict mode, on a Claude Code session recorded in plan mode
// (written while the app runs, in a trusted git folder of its own):
// - the installed claude's --help (the real 2.1.328 one when the pipeline
//   seed puts it first on the PATH: its choices list wraps over four lines)
//   is read whole, so "plan" is kept and passed as --permission-mode plan,
//   with no tick offered;
// - the Runs line wraps between arguments in a narrow window, never inside one;
// - the session id is shown whole, with a Copy button that says Copied;
// - conversation times from another day carry the date;
// - Open in Terminal runs exactly that argv in the recorded folder (the real
//   claude then shows plan mode);
// - the search text and the selected session are still there after leaving
//   the screen and coming back.
export default async function ({ page, base, home, tmp, env, shot }) {
  const folder = join(tmp, 'work', 'plan-notes');
  mkdirSync(folder, { recursive: true });
  const git = (...a) => execFileSync('git', ['-C', folder, '-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', ...a], { stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'init');
  // The folder is trusted, as it is for someone who used claude there.
  const cfgPath = join(home, '.claude.json');
  const cfg = existsSync(cfgPath) ? JSON.parse(readFileSync(cfgPath, 'utf8')) : {};
  cfg.projects = { ...cfg.projects, [folder]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } };
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2));

  const id = '5b1e9c3a-7d24-4f8e-9a61-0c2d4e6f8a10';
  const title = 'Plan the invoice export';
  put(join(home, '.claude', 'projects', escape(folder), id + '.jsonl'),
    claudeTranscript({ id, cwd: folder, branch: 'main', title, firstMessage: 'How should the invoice export work?', mode: 'plan' }));

  await page.goto(base + '/#/external-agents');
  const row = page.locator(`[data-session$=":${id}"]`);
  const search = page.getByPlaceholder('Search titles, folders, branches', { exact: true });
  await search.fill('invoice export');
  await row.waitFor({ timeout: 20000 });
  await row.click();

  // From the app: plan is at least as strict as the default: kept, passed.
  const panel = page.locator('[aria-label="From the app"]');
  const mode = panel.locator('li', { hasText: 'Approval mode' });
  await until('the plan for the plan-mode session', async () => ((await mode.textContent().catch(() => '')) ?? '').includes('kept (--permission-mode)'), 20000);
  assert((await mode.locator('.value').textContent()) === 'plan', 'the recorded mode is plan');
  assert((await panel.locator('[data-keep]').count()) === 0, 'plan is strict: no tick is offered');
  const wantArgv = ['claude', '--resume', id, '--model', seeded.model, '--effort', seeded.effort, '--permission-mode', 'plan'];
  const argvShown = await page.textContent('[data-argv]');
  assert(argvShown === wantArgv.join(' '), `Runs: ${argvShown}`);

  // The Runs line wraps between arguments, never inside one.
  await page.setViewportSize({ width: 900, height: 700 });
  const layout = await page.$$eval('[data-argv] .arg', (els) => els.map((e) => ({ text: e.textContent, lines: e.getClientRects().length, top: Math.round(e.getBoundingClientRect().top) })));
  assert(layout.map((a) => a.text).join(' ') === argvShown, `argument spans: ${JSON.stringify(layout)}`);
  assert(new Set(layout.map((a) => a.top)).size > 1, `the Runs line should wrap in a 900 px window: ${JSON.stringify(layout)}`);
  for (const a of layout) assert(a.lines === 1, `argument ${a.text} is broken across lines`);
  const argEl = await page.$$eval('[data-argv] .arg', (els) => els.every((e) => e.scrollWidth <= e.clientWidth + 1));
  assert(argEl, 'an argument is cut off');
  await shot('external-agents-plan-narrow');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The session id whole, with Copy.
  const idCell = page.locator('[data-id="Session id"]');
  await idCell.waitFor();
  const whole = idCell.locator('.whole');
  assert((await whole.textContent()) === id, `session id shown: ${await whole.textContent()}`);
  assert(await whole.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().width > 0), 'the session id is cut off');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base }).catch(() => {});
  await idCell.getByRole('button', { name: 'Copy session id' }).click();
  await until('Copied', async () => ((await idCell.getByRole('button').textContent()) ?? '').trim() === 'Copied');

  // Conversation times from another day carry the date.
  const first = page.locator('[data-row-kind="user"] .time').first();
  await first.waitFor();
  const shown = (await first.textContent()).trim();
  const when = new Date(Date.UTC(2026, 10, 4, 10, 0, 0));
  const today = new Date();
  const sameDay = when.toDateString() === today.toDateString();
  assert(sameDay ? /^\d\d:\d\d$/.test(shown) : /^[A-Z][a-z]{2} \d{1,2}( \d{4})?, \d\d:\d\d$/.test(shown), `row time: ${shown}`);

  // Leaving the screen and coming back keeps the search and the selection.
  await page.goto(base + '/#/terminal');
  await page.goto(base + '/#/external-agents');
  await row.waitFor();
  assert((await search.inputValue()) === 'invoice export', `search after coming back: ${await search.inputValue()}`);
  assert((await row.getAttribute('aria-selected')) === 'true', 'the session is still selected');
  await until('the selected session to show', async () => (await page.locator('.pane h2').textContent().catch(() => '')) === title);

  // Open in Terminal runs the plan-mode argv in the recorded folder.
  await until('the plan again', async () => (await page.textContent('[data-argv]').catch(() => '')) === wantArgv.join(' '), 20000);
  await page.getByRole('button', { name: 'Open in Terminal' }).click();
  await page.waitForURL(/#\/terminal\?pane=p-[0-9a-f]+$/);
  const paneId = decodeURIComponent(new URL(page.url()).hash.split('pane=')[1]);
  const pane = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === paneId);
  assert(pane && pane.dir === folder && JSON.stringify(pane.argv) === JSON.stringify(wantArgv), `pane: ${JSON.stringify(pane)}`);
  const claude = whichClaude(env, tmp);
  if (claude !== 'fake' && claude !== 'none') {
    // The real Claude Code resumes the session in plan mode (first it asks
    // about the API key the e2e environment carries: Enter keeps "No").
    await until('the real claude to show plan mode', async () => {
      const screen = (await xtermText(page, paneId)).replace(/\n/g, ' ');
      if (/Do you want to use this API key\?/.test(screen)) await goCall(page, 'terminal.Service.Input', paneId, '\r');
      return /plan mode on/i.test(screen);
    }, 60000);
  }
  await shot('external-agents-plan-terminal');
  await goCall(page, 'terminal.Service.Close', paneId);
}
