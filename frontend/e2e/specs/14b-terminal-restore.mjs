import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { until, assert, xtermText, goCall, alive } from '../lib.mjs';

// Restore of an agent pane after the app restarts. A second copy of the app
// runs on a data folder of its own (quitting it leaves the runner's app
// alone). In it the person starts the REAL Claude Code (`claude`, against
// the fake model) and a plain shell, talks to Claude, and quits the app.
// Checks: quitting ends both panes' processes; after the restart the rail
// lists the two panes in their saved order; the Claude pane shows the same
// conversation (the earlier message is on screen, the rail's tooltip says it
// resumed the session Claude reported) and the next question reaches the
// model with the earlier turn in it — not a new empty session; the pane still
// reads `claude`; the shell pane came back as a shell.
const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.env.OSF_E2E_DIST ?? resolve(here, '../../dist'));

function freePort() {
  return new Promise((ok, fail) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** startApp runs the dev build on its own data folder; returns its base URL and a quit function. */
export async function startApp(bin, env, data) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x820x24', bin, '-devserver', `127.0.0.1:${port}`, '-assetdir', dist], {
    env: { ...env, OSFOUNDRY_HOME: data },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  app.stderr.on('data', (d) => (log += d));
  const exited = new Promise((ok) => app.once('exit', ok));
  await until(`the second app to serve ${base}`, async () => {
    try {
      return (await fetch(base + '/')).ok;
    } catch {
      return false;
    }
  }, 60000).catch((e) => {
    throw new Error(`${e.message}\n${log.slice(-2000)}`);
  });
  const quit = async () => {
    try {
      process.kill(-app.pid, 'SIGTERM');
    } catch {}
    const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15000))]);
    if (!done) {
      try {
        process.kill(-app.pid, 'SIGKILL');
      } catch {}
    }
    return done;
  };
  return { base, quit, log: () => log };
}

// Claude Code's prompt footer once it takes input (auto mode, the 2.1.328
// default, shows its mode instead of the shortcuts hint).
const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;

/** railOrder lists the pane ids in the rail, top to bottom. */
const railOrder = (page) => page.$$eval('[data-pane]', (els) => els.map((e) => e.getAttribute('data-pane')));

export default async function ({ page, home, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const say = async (text) => assert((await fake(`/_testkit/push?scenario=say&text=${encodeURIComponent(text)}`, { method: 'POST' })).status === 204, `push say ${text}`);

  // The folder Claude works in, trusted like the pipeline's.
  const dir = join(tmp, 'restore', 'shop-notes');
  mkdirSync(dir, { recursive: true });
  const state = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
  state.projects[dir] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(state, null, 2));
  const data = join(tmp, 'data-restore');
  // The runner's environment carries an API key for the workers' tests to
  // strip; a person's terminal has none, and Claude would ask about it.
  const { ANTHROPIC_API_KEY: _, ...appEnv } = env;

  let app = await startApp(bin, appEnv, data);
  try {
    await page.goto(app.base + '/#/terminal');
    const form = page.getByRole('form', { name: 'New pane' });
    await form.waitFor();
    await form.locator('input[name="dir"]').fill(dir);
    await form.locator('input[name="command"]').fill('claude');
    await form.getByRole('button', { name: 'Start' }).click();
    const claudeView = await page.waitForSelector('[data-pane-view]');
    const claudeId = await claudeView.getAttribute('data-pane-view');
    await until('Claude Code to be ready', async () => ready.test(await xtermText(page, claudeId)), 45000);
    await say('Noted: osf-kiwi-7.');
    await claudeView.click();
    await page.keyboard.type('Remember the word osf-kiwi-7');
    await until('the message to be typed', async () => (await xtermText(page, claudeId)).includes('Remember the word osf-kiwi-7'));
    await page.keyboard.press('Enter');
    await until("Claude's answer", async () => (await xtermText(page, claudeId)).includes('Noted: osf-kiwi-7.'), 45000);

    // A shell beside it.
    await page.getByRole('button', { name: '+ New pane' }).click();
    await form.locator('input[name="dir"]').fill(dir);
    await form.locator('input[name="command"]').fill('');
    await form.getByRole('button', { name: 'Start' }).click();
    const shellId = await until('the shell pane', async () => (await railOrder(page)).find((id) => id !== claudeId));

    // The pane knows Claude's session; Claude wrote the turn to it.
    const before = await until('the pane to know its conversation', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === claudeId && p.session));
    const transcript = join(home, '.claude', 'projects', dir.replace(/[^A-Za-z0-9]/g, '-'), before.session + '.jsonl');
    await until('the transcript to hold the answer', async () => existsSync(transcript) && readFileSync(transcript, 'utf8').includes('osf-kiwi-7.'), 20000);
    assert((await railOrder(page)).join() === [claudeId, shellId].join(), 'rail order before the restart');
    await shot('restore-before-quit');
    const pids = (await goCall(page, 'terminal.Service.List')).map((p) => p.pid);

    // Quit; every pane's processes end with the app.
    assert(await app.quit(), 'the app should quit on SIGTERM');
    await until("the panes' processes to end", async () => pids.every((pid) => !alive(pid)), 10000);

    // Start again.
    app = await startApp(bin, appEnv, data);
    await page.goto(app.base + '/#/terminal');
    await until('both panes in the rail', async () => (await railOrder(page)).length === 2, 20000);
    assert((await railOrder(page)).join() === [claudeId, shellId].join(), `rail order after the restart: ${await railOrder(page)}`);
    const panes = await goCall(page, 'terminal.Service.List');
    const claude = panes.find((p) => p.id === claudeId);
    const shell = panes.find((p) => p.id === shellId);
    assert(JSON.stringify(claude.argv) === '["claude"]', `the Claude pane should still read claude, got ${claude.argv}`);
    assert(claude.resumed === `Resumed Claude Code conversation ${before.session}`, `resumed: ${claude.resumed}`);
    assert(!shell.resumed && shell.argv.join(' ') === env.SHELL && shell.foreground === 'bash', `the shell pane should come back as a shell: ${JSON.stringify(shell)}`);

    await page.click(`[data-pane="${claudeId}"]`);
    await page.waitForSelector(`[data-pane-view="${claudeId}"]`);
    await until('the earlier conversation on screen', async () => (await xtermText(page, claudeId)).includes('Remember the word osf-kiwi-7'), 45000);
    // The rail entry's tooltip says how the pane came back.
    await page.mouse.move(0, 0);
    await page.hover(`[data-pane="${claudeId}"]`);
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor({ timeout: 3000 });
    const tip = await tooltip.textContent();
    assert(tip.includes(`Resumed Claude Code conversation ${before.session}`), `rail tooltip: ${tip}`);
    await until('Claude Code to be ready again', async () => ready.test(await xtermText(page, claudeId)), 45000);
    await shot('restore-after-restart');

    await say('You asked me to remember osf-kiwi-7.');
    await page.click(`[data-pane-view="${claudeId}"]`);
    await page.keyboard.type('What did I ask you to remember?');
    await until('the question to be typed', async () => (await xtermText(page, claudeId)).includes('What did I ask you to remember?'));
    await page.keyboard.press('Enter');
    await until('the answer after the restart', async () => (await xtermText(page, claudeId)).includes('You asked me to remember osf-kiwi-7.'), 45000);
    const reqs = await (await fake('/_testkit/requests')).json();
    const last = reqs.filter((r) => r.summary.includes('What did I ask you to remember')).pop();
    assert(last && last.messages >= 3, `the question should reach the model with the earlier turn: ${JSON.stringify(last)}`);
  } finally {
    await app.quit();
  }
}
