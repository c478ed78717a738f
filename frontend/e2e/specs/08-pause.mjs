import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall, alive } from '../lib.mjs';

// Pause and Resume on the Sessions board. A pane runs prompt.sh (a stand-in
// for Claude Code's TUI) in a turn that works for ten minutes. Checks: the
// running card's Pause button freezes the pane (its processes stopped, 'T'
// in /proc) and moves the card to Paused with its why line; the rail reads
// "Paused · shop-pause" and the Terminal screen shows the paused bar, whose
// Resume brings the card back to Running; paused again, the card dropped on
// Done asks first, writes the summary (with the pause in it) and ends the
// pane with no process left.
const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, '../../../backend/testkit/fakeprompt/prompt.sh');

/** procState reads a process's state letter from /proc ('' when gone). */
function procState(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return '';
  }
}

export default async function ({ page, base, tmp, env, shot }) {
  const dir = join(tmp, 'sessions', 'shop-pause');
  mkdirSync(dir, { recursive: true });
  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="paused"]');
  const p = await goCall(page, 'terminal.Service.Create', { dir, command: `env OSF_WORK=600 bash ${script}`, cols: 100, rows: 30 });
  const cleanup = () => goCall(page, 'terminal.Service.Close', p.id).catch(() => {});
  try {
    const card = `[data-card="terminal/${p.id}"]`;
    const inColumn = (col) => `[data-column="${col}"] ${card}`;
    await page.waitForSelector(inColumn('idle'));
    await goCall(page, 'terminal.Service.Input', p.id, 't');
    await page.waitForSelector(inColumn('running'), { timeout: 5000 });
    assert(procState(p.pid) !== 'T', 'the pane should run before Pause');

    // Pause from the running card.
    await shot('pause-board-running');
    await page.locator(card).getByRole('button', { name: /^Pause / }).click();
    await page.waitForSelector(inColumn('paused'), { timeout: 5000 });
    const why = await page.textContent(card);
    assert(why.includes('Paused — Claude Code is frozen until you resume it'), `paused card: ${why}`);
    assert(procState(p.pid) === 'T', `the pane's shell should be stopped, state ${procState(p.pid)}`);
    assert(!(await page.$(`[data-column="paused"] .empty`)), 'the Paused column should not read empty');
    await shot('pause-board-paused');

    // The Terminal screen: rail label and the paused bar with Resume.
    await page.click(`${card} button.open`);
    await until('the Terminal screen on the pane', async () => page.url().includes(`#/terminal?pane=${p.id}`));
    const rail = page.locator(`[data-pane="${p.id}"]`);
    await until('rail label Paused · shop-pause', async () => (await rail.textContent()).trim() === 'Paused · shop-pause');
    const bar = page.locator(`[data-paused="${p.id}"]`);
    await bar.waitFor();
    assert((await bar.textContent()).includes('Paused'), 'paused bar text');
    const status = await page.textContent('.status-bar');
    assert(status.includes('Nothing needs you'), `status bar while paused: ${status}`);
    await shot('pause-terminal-bar');
    await bar.getByRole('button', { name: 'Resume' }).click();
    await until('rail label Working · shop-pause', async () => (await rail.textContent()).trim() === 'Working · shop-pause');
    await until('the paused bar to go', async () => (await page.$(`[data-paused="${p.id}"]`)) === null);
    assert(procState(p.pid) !== 'T', 'the pane should run again after Resume');

    // The rail's own Pause (⏸) and Resume (▶) buttons.
    await page.hover(`[data-pane="${p.id}"]`);
    await page.click(`[data-pause="${p.id}"]`);
    await bar.waitFor();
    await until('rail label Paused · shop-pause (rail button)', async () => (await rail.textContent()).trim() === 'Paused · shop-pause');
    assert(procState(p.pid) === 'T', `paused from the rail, the shell is in state ${procState(p.pid)}`);
    await shot('pause-terminal-rail');
    await page.click(`[data-resume="${p.id}"]`);
    await until('the paused bar to go (rail button)', async () => (await page.$(`[data-paused="${p.id}"]`)) === null);
    assert(procState(p.pid) !== 'T', 'the pane should run again after the rail Resume');

    // Back on the board: Running; pause again, then end it through Done.
    await page.goto(base + '/#/sessions');
    await page.waitForSelector(inColumn('running'), { timeout: 5000 });
    await page.hover(card);
    await page.locator(card).getByRole('button', { name: /^Pause / }).click();
    await page.waitForSelector(inColumn('paused'), { timeout: 5000 });
    await page.dragAndDrop(card, '[data-column="done"]');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    assert((await dialog.textContent()).includes('End this session?'), 'confirmation dialog');
    await shot('pause-confirm-done');
    await dialog.getByRole('button', { name: 'End session' }).click();
    const notice = await page.waitForSelector('[role="status"]');
    const m = (await notice.textContent()).match(/Summary saved to (\S+\.md)/);
    assert(m, `notice: ${await notice.textContent()}`);
    assert(m[1].startsWith(join(env.OSFOUNDRY_HOME, 'knowledge')), `summary outside the knowledge folder: ${m[1]}`);
    assert(existsSync(m[1]), `summary file ${m[1]} missing`);
    const md = readFileSync(m[1], 'utf8');
    for (const want of ['- Kind: Terminal', `- Where: ${dir}`, 'You paused it', 'You resumed it', '## Last screen']) {
      assert(md.includes(want), `summary lacks ${JSON.stringify(want)}:\n${md}`);
    }
    // The pane is closed; its card stays in Done until cleared.
    await page.waitForSelector(inColumn('done'));
    const panes = await goCall(page, 'terminal.Service.List');
    assert(!panes.some((x) => x.id === p.id), 'the ended pane should be closed');
    await until('the paused pane to be gone', async () => !alive(p.pid) || procState(p.pid) === 'Z' || procState(p.pid) === '');
    await shot('pause-ended');
  } finally {
    await cleanup();
  }
}
