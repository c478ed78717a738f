import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, xtermText, goCall, alive } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// The same journey with the REAL Codex CLI (against the fake model's
// Responses API): a pane started as `codex` comes back after the app
// restarts as the same conversation, found from the rollout file Codex
// keeps open, and the next question reaches the model with the earlier turn;
// then its card on the Sessions board goes to Done with Codex's session and
// resume command in the summary.
export default async function ({ page, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const say = async (text) => assert((await fake(`/_testkit/push?scenario=say&text=${encodeURIComponent(text)}`, { method: 'POST' })).status === 204, `push say ${text}`);

  const dir = join(tmp, 'restore-codex', 'shop-cli');
  mkdirSync(dir, { recursive: true });
  // Codex's own home, as backend/testkit/agentenv writes it: the fake
  // provider, no update check, the folder trusted, first-run notices seen.
  const codexHome = join(tmp, 'codex-home');
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
  const data = join(tmp, 'data-restore-codex');
  const ready = /\? for shortcuts/;

  let app = await startApp(bin, appEnv, data);
  try {
    await page.goto(app.base + '/#/terminal');
    const form = page.getByRole('form', { name: 'New pane' });
    await form.waitFor();
    await form.locator('input[name="dir"]').fill(dir);
    await form.locator('input[name="command"]').fill('codex --no-daemon -s read-only');
    await form.getByRole('button', { name: 'Start' }).click();
    const view = await page.waitForSelector('[data-pane-view]');
    const id = await view.getAttribute('data-pane-view');
    await until('Codex to be ready', async () => ready.test(await xtermText(page, id)), 45000);
    await say('Noted: osf-plum-3.');
    await view.click();
    await page.keyboard.type('Remember the word osf-plum-3');
    await until('the message to be typed', async () => (await xtermText(page, id)).includes('Remember the word osf-plum-3'));
    await page.keyboard.press('Enter');
    await until("Codex's answer", async () => (await xtermText(page, id)).includes('Noted: osf-plum-3.'), 45000);
    const before = await until('the pane to know its conversation', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id && p.session), 20000);
    await shot('restore-codex-before-quit');
    assert(await app.quit(), 'the app should quit on SIGTERM');
    await until("the pane's processes to end", async () => !alive(before.pid), 10000);

    app = await startApp(bin, appEnv, data);
    await page.goto(app.base + '/#/terminal');
    const pane = await until('the restored pane', async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id), 20000);
    assert(pane.argv.join(' ') === 'codex --no-daemon -s read-only', `the pane should still read its command, got ${pane.argv}`);
    assert(pane.resumed === `Resumed Codex CLI conversation ${before.session}`, `resumed: ${pane.resumed}`);
    await page.click(`[data-pane="${id}"]`);
    await until('the earlier conversation on screen', async () => (await xtermText(page, id)).includes('Remember the word osf-plum-3'), 45000);
    await until('Codex to be ready again', async () => ready.test(await xtermText(page, id)), 45000);
    await shot('restore-codex-after-restart');
    await say('You asked me to remember osf-plum-3.');
    await page.click(`[data-pane-view="${id}"]`);
    await page.keyboard.type('What did I ask you to remember?');
    await until('the question to be typed', async () => (await xtermText(page, id)).includes('What did I ask you to remember?'));
    await page.keyboard.press('Enter');
    await until('the answer after the restart', async () => (await xtermText(page, id)).includes('You asked me to remember osf-plum-3.'), 45000);

    // On the Sessions board the Codex pane is an Idle card; dropped on Done
    // it is summarised with Codex's own session and the command that
    // resumes it.
    await page.goto(app.base + '/#/sessions');
    const card = `[data-card="terminal/${id}"]`;
    await page.waitForSelector(`[data-column="idle"] ${card}`, { timeout: 30000 });
    assert((await page.locator(card).textContent()).includes('Codex'), `the card names Codex: ${await page.locator(card).textContent()}`);
    await page.dragAndDrop(card, '[data-column="done"]');
    const dialog = page.getByRole('dialog', { name: 'End this session?' });
    await dialog.getByRole('button', { name: 'End session' }).click();
    await dialog.waitFor({ state: 'detached' });
    const notice = await page.locator('.banner.notice').textContent();
    const path = notice.match(/Summary saved to (\S+\.md)/)?.[1];
    assert(path, `the notice after Done: ${notice}`);
    await page.waitForSelector(`[data-column="done"] ${card}`, { timeout: 10000 });
    const md = readFileSync(path, 'utf8');
    assert(md.includes(`- Agent session: \`${before.session}\``), `the summary lacks Codex's session ${before.session}:\n${md}`);
    const resume = md.match(/^- Resume: `(.*)`$/m)?.[1] ?? '';
    assert(resume.includes('codex') && resume.includes(`resume ${before.session}`), `the resume command: ${resume}\n${md}`);
    await shot('restore-codex-done');
  } finally {
    await app.quit();
  }
}
