import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// The REAL Codex CLI in its default mode (against the fake model) starts a
// detached app-server daemon and its updater, each in a session of its
// own, which outlive the pane's codex. Checks, in a second copy of the app
// on its own data folder: closing the pane ends them, and when the next
// pane opens neither they nor the closed pane come back; quitting with
// "Quit anyway" ends them; SIGTERM to the app (not to its display) ends them —
// no `codex app-server` process carrying the pane's id is left, nor one
// running from the daemon package of the pane's CODEX_HOME.

/** codexDaemons lists the live app-server daemons and updaters of codexHome. */
function codexDaemons(codexHome) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (argv[1] !== 'app-server' || stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      const env = readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (env.includes(`CODEX_HOME=${codexHome}`) || argv[0].startsWith(join(codexHome, 'packages', 'app-server-daemon'))) {
        out.push({ pid: Number(d), pane: env.find((kv) => kv.startsWith('OSF_PANE_ID='))?.slice(12) ?? '', argv: argv.join(' ') });
      }
    } catch {}
  }
  return out;
}

/** paneProcs lists the live processes whose environment carries pane id. */
function paneProcs(id) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`OSF_PANE_ID=${id}`)) {
        out.push({ pid: Number(d), argv: readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ') });
      }
    } catch {}
  }
  return out;
}

/** appPid is the app process xvfb-run started for base (its display stays up). */
function appPid(bin, base) {
  const port = base.split(':').pop();
  for (const d of readdirSync('/proc')) {
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (argv[0] === bin && argv.includes(`127.0.0.1:${port}`)) return Number(d);
    } catch {}
  }
  return 0;
}

export default async function ({ page, tmp, env, bin }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const say = async (text) => assert((await fetch(seed.url + `/_testkit/push?scenario=say&text=${encodeURIComponent(text)}`, { method: 'POST' })).status === 204, `push say ${text}`);
  const dir = join(tmp, 'codex-daemon', 'shop-cli');
  mkdirSync(dir, { recursive: true });
  const codexHome = join(tmp, 'codex-daemon-home');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    `model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = ${JSON.stringify(seed.url + '/v1')}
wire_api = "responses"
env_key = "OSF_FAKE_OPENAI_KEY"
supports_websockets = false
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000

[projects.${JSON.stringify(dir)}]
trust_level = "trusted"

[tui]
screen_reader_detection_done = true

[tui.model_availability_nux]
"gpt-6.1-sol" = 1

[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"
`,
  );
  const { ANTHROPIC_API_KEY: _, ...rest } = env;
  const appEnv = { ...rest, CODEX_HOME: codexHome, OSF_FAKE_OPENAI_KEY: 'sk-osf-fake-0000' };
  const data = join(tmp, 'data-codex-daemon');

  // startCodex opens a pane running `codex` as a person types it, has one
  // exchange, and waits for Codex's daemon and updater.
  const seen = new Set();
  const startCodex = async (app, word) => {
    await page.goto(app.base + '/#/terminal');
    const form = page.getByRole('form', { name: 'New pane' });
    if (!(await form.isVisible())) await page.getByRole('button', { name: /New pane/ }).click();
    await form.waitFor();
    await form.locator('input[name="dir"]').fill(dir);
    await form.locator('input[name="command"]').fill('codex -s read-only');
    await form.getByRole('button', { name: 'Start' }).click();
    const id = await until('the new pane', async () => (await goCall(page, 'terminal.Service.List')).find((p) => !seen.has(p.id))?.id);
    seen.add(id);
    const view = await page.waitForSelector(`[data-pane-view="${id}"]`);
    await until('Codex to be ready', async () => /\? for shortcuts/.test(await xtermText(page, id)), 45000);
    await say(`Noted: ${word}.`);
    await view.click();
    await page.keyboard.type(`Remember the word ${word}`);
    await until('the message to be typed', async () => (await xtermText(page, id)).includes(`Remember the word ${word}`));
    await page.keyboard.press('Enter');
    await until("Codex's answer", async () => (await xtermText(page, id)).includes(`Noted: ${word}.`), 45000);
    const daemons = await until("Codex's daemon and updater", async () => {
      const ds = codexDaemons(codexHome);
      return ds.some((d) => d.argv.includes('--managed-daemon')) && ds.some((d) => d.argv.includes('pid-update-loop')) && ds;
    }, 20000);
    // The first codex of the CODEX_HOME starts the daemon: this pane's, or
    // the pane the app restored at its start.
    const ids = (await goCall(page, 'terminal.Service.List')).map((p) => p.id);
    assert(daemons.some((d) => ids.includes(d.pane)), `no daemon carries the id of a pane of the app (${ids}): ${JSON.stringify(daemons)}`);
    return id;
  };
  const noneLeft = (what) =>
    until(`no Codex daemon left after ${what}`, async () => codexDaemons(codexHome).length === 0, 30000).catch(() => {
      throw new Error(`Codex daemons left after ${what}: ${JSON.stringify(codexDaemons(codexHome))}`);
    });

  let app = await startApp(bin, appEnv, data);
  try {
    // (a) Close pane (confirmed while Codex still works). The daemon the
    // pane started ends, and opening the next pane brings back neither a
    // process carrying the closed pane's id nor the pane itself.
    const closed = await startCodex(app, 'osf-plum-1');
    await page.click(`[data-close="${closed}"]`);
    const dialog = page.getByRole('alertdialog');
    await until('the pane to close', async () => {
      if (await dialog.isVisible()) await dialog.getByRole('button', { name: 'Close pane' }).click();
      return !(await goCall(page, 'terminal.Service.List')).some((p) => p.id === closed);
    });
    await noneLeft('Close pane');
    await until("no process carrying the closed pane's id", async () => paneProcs(closed).length === 0, 30000).catch(() => {
      throw new Error(`processes of the closed pane left: ${JSON.stringify(paneProcs(closed))}`);
    });
    await page.getByRole('button', { name: /New pane/ }).click();
    const form = page.getByRole('form', { name: 'New pane' });
    await form.locator('input[name="dir"]').fill(dir);
    await form.locator('input[name="command"]').fill('');
    await form.getByRole('button', { name: 'Start' }).click();
    const shell = await until('the shell pane', async () => (await goCall(page, 'terminal.Service.List')).find((p) => !seen.has(p.id)));
    seen.add(shell.id);
    await until('the shell to take input', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === shell.id)?.foreground === 'bash', 20000);
    await page.waitForSelector(`[data-pane="${shell.id}"]`);
    const panes = (await goCall(page, 'terminal.Service.List')).map((p) => p.id);
    assert(!panes.includes(closed) && (await page.$(`[data-pane="${closed}"]`)) === null, `the closed pane ${closed} came back: ${panes}`);
    assert(paneProcs(closed).length === 0, `a process carrying the closed pane's id came back: ${JSON.stringify(paneProcs(closed))}`);
    assert(codexDaemons(codexHome).length === 0, `a Codex daemon came back with the next pane: ${JSON.stringify(codexDaemons(codexHome))}`);
    await goCall(page, 'terminal.Service.Close', shell.id);

    // (b) The window quits: "Quit anyway" (what ✕ and Ctrl+Q lead to).
    await startCodex(app, 'osf-pear-2');
    await goCall(page, 'quitask.Guard.QuitAnyway').catch(() => {}); // the page goes with the window
    await noneLeft('Quit anyway');

    // (c) SIGTERM to the app alone, its display left running.
    await app.quit();
    app = await startApp(bin, appEnv, data);
    await startCodex(app, 'osf-kiwi-3');
    const pid = appPid(bin, app.base);
    assert(pid > 0, `the app's process for ${app.base}`);
    process.kill(pid, 'SIGTERM');
    await noneLeft('SIGTERM to the app');
  } finally {
    await app.quit();
    for (const d of codexDaemons(codexHome)) {
      try {
        process.kill(d.pid, 'SIGKILL');
      } catch {}
    }
  }
}
