import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall } from '../lib.mjs';

// Drag to Done for every kind of card, with the REAL Claude Code
// (build/agents) against the scripted fake model:
// - a Terminal pane running claude (Idle after its answer);
// - a chat whose run answered (Idle);
// - an agent run paused from its card (Paused).
// Each dropped on Done asks first, lands in Done and stays there (also
// after a reload) until cleared; each summary names Claude Code's own
// session id and the exact command that resumes it, and opens in the app.
// Team and Loop cards (a fleet and a loop started for real) are dragged to
// Done the same way in 12c-sessions-jobs.
// The board with cards of every kind is shot at 1280×820 (the README's).
const here = dirname(fileURLToPath(import.meta.url));
const results = join(here, '..', '..', 'test-results');

export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const push = async (scenario) => assert((await fake(`/_testkit/push?scenario=${scenario}`, { method: 'POST' })).status === 204, `push ${scenario}`);

  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="done"]');
  const pane = await goCall(page, 'terminal.Service.Create', { dir: seed.work, command: 'claude', cols: 120, rows: 32 });
  const extra = [];
  try {
    const screen = async () => (await goCall(page, 'terminal.Service.ScreenText', pane.id)).join('\n');
    const shows = (what, text, ms = 60000) =>
      until(what, async () => (await screen()).includes(text), ms).catch(async (e) => {
        throw new Error(`${e.message}; the pane shows:\n${await screen()}`);
      });
    // The app's environment has an API key: a Claude Code pane the app
    // starts does not inherit it (work stays on the subscription, here the
    // apiKeyHelper the seed configured), says so on its first line, and
    // Claude Code never asks whether to use it.
    await shows('the notice that the API key was removed', 'osFoundry removed ANTHROPIC_API_KEY from this pane so Claude Code uses your subscription');
    await shows('Claude Code to start in the pane', 'shift+tab to cycle');
    assert(!(await screen()).includes('Do you want to use this API key?'), `Claude Code asked about an API key the pane should not have:\n${await screen()}`);
    await push('verify');
    await goCall(page, 'terminal.Service.Input', pane.id, 'Reply with ok');
    await goCall(page, 'terminal.Service.Input', pane.id, '\r');
    await until('the answer', async () => /[⏺●] ok/.test(await screen()), 60000).catch(async (e) => {
      throw new Error(`${e.message}; the pane shows:\n${await screen()}`);
    });
    const card = (key) => `[data-card="${key}"]`;
    const inColumn = (col, key) => `[data-column="${col}"] ${card(key)}`;
    const termKey = `terminal/${pane.id}`;
    await page.waitForSelector(inColumn('idle', termKey), { timeout: 15000 });
    const reported = async () => (await goCall(page, 'terminal.Service.List')).find((p) => p.id === pane.id)?.session ?? '';
    await until("the pane's conversation id", reported, 15000);
    const termSession = await reported();

    // A chat whose run answered: Idle.
    await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
    await goCall(page, 'roles.Binding.AddFolder', seed.work);
    const chat = await goCall(page, 'chat.Binding.CreateChat', { title: 'Release checklist', folder: seed.work, agentId: '', worktree: false });
    await push('verify');
    await goCall(page, 'chat.Binding.Send', chat.id, 'Reply with ok');
    const chatKey = `pipeline/${chat.id}`;
    await until('the chat to answer', async () => (await goCall(page, 'chat.Binding.GetChat', chat.id)).runs[0]?.state === 'done', 90000);
    await page.waitForSelector(inColumn('idle', chatKey), { timeout: 10000 });

    // An agent run that works on a held turn, paused from its card.
    const agent = await goCall(page, 'roles.Binding.SaveAgent', { id: '', name: 'Slow helper', modelPreference: 'cli:claude:agent', runtimeRole: 'Worker', instructions: '' });
    const asked = (await (await fake('/_testkit/requests')).json()).length;
    await push('slow');
    const run = await goCall(page, 'chat.Binding.RunAgent', agent.id, 'Draft the release notes slowly', false);
    const runKey = `pipeline/${run.id}`;
    await until('the agent run to ask the model', async () => (await (await fake('/_testkit/requests')).json()).length > asked, 90000);
    await page.waitForSelector(inColumn('running', runKey), { timeout: 10000 });
    await page.locator(card(runKey)).getByRole('button', { name: /^Pause / }).click();
    await page.waitForSelector(inColumn('paused', runKey), { timeout: 10000 });

    // The README's board: every kind of card, a prompt waiting, one working.
    const script = join(here, '../../../backend/testkit/fakeprompt/prompt.sh');
    const api = join(tmp, 'board-shot', 'shop-api');
    const web = join(tmp, 'board-shot', 'shop-web');
    mkdirSync(api, { recursive: true });
    mkdirSync(web, { recursive: true });
    const asks = await goCall(page, 'terminal.Service.Create', { dir: api, command: `env OSF_WORK=0 bash ${script}`, cols: 100, rows: 30 });
    const works = await goCall(page, 'terminal.Service.Create', { dir: web, command: `env OSF_WORK=900 bash ${script}`, cols: 100, rows: 30 });
    extra.push(asks.id, works.id);
    await page.waitForSelector(inColumn('idle', `terminal/${asks.id}`));
    await page.waitForSelector(inColumn('idle', `terminal/${works.id}`));
    await goCall(page, 'terminal.Service.Input', asks.id, 't');
    await goCall(page, 'terminal.Service.Input', works.id, 't');
    await page.waitForSelector(inColumn('needs_you', `terminal/${asks.id}`), { timeout: 5000 });
    await page.waitForSelector(inColumn('running', `terminal/${works.id}`), { timeout: 5000 });
    // One ended already (Done), and the rules warning of this test's seed dismissed.
    const docs = join(tmp, 'board-shot', 'docs-site');
    mkdirSync(docs, { recursive: true });
    const ended = await goCall(page, 'terminal.Service.Create', { dir: docs, command: `env OSF_WORK=0 bash ${script}`, cols: 100, rows: 30 });
    extra.push(ended.id);
    await page.waitForSelector(inColumn('idle', `terminal/${ended.id}`));
    await page.dragAndDrop(card(`terminal/${ended.id}`), '[data-column="done"]');
    await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
    await page.waitForSelector(inColumn('done', `terminal/${ended.id}`));
    await page.locator('.banner.notice').getByRole('button', { name: 'Dismiss' }).click();
    for (const b of await page.locator('.banner.rules').all()) await b.getByRole('button', { name: 'Dismiss' }).click();
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.mouse.move(0, 0);
    const scroll = await page.$eval('.columns', (el) => el.scrollWidth - el.clientWidth);
    assert(scroll <= 0, `at 1280×820 the six columns should fit without scrolling (${scroll}px over)`);
    await page.screenshot({ path: join(results, 'readme-sessions-board.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Each kind dropped on Done: confirmation, Done, its summary.
    const summaries = {};
    for (const [name, key, from] of [
      ['terminal', termKey, 'idle'],
      ['chat', chatKey, 'idle'],
      ['agent run', runKey, 'paused'],
    ]) {
      await page.waitForSelector(inColumn(from, key));
      await page.dragAndDrop(card(key), '[data-column="done"]');
      const dialog = page.getByRole('dialog', { name: 'End this session?' });
      await dialog.getByRole('button', { name: 'End session' }).click();
      await dialog.waitFor({ state: 'detached' });
      const notice = page.locator('.banner.notice');
      const path = (await notice.textContent()).match(/Summary saved to (\S+\.md)/)?.[1];
      assert(path, `the ${name}'s notice: ${await notice.textContent()}`);
      await page.waitForSelector(inColumn('done', key), { timeout: 10000 });
      summaries[name] = path;
    }
    const runAfter = await goCall(page, 'chat.Binding.GetRun', run.id);
    const chatAfter = (await goCall(page, 'chat.Binding.GetChat', chat.id)).chat;
    const ids = { terminal: termSession, chat: chatAfter.cliSession, 'agent run': runAfter.sessionId };
    for (const [name, path] of Object.entries(summaries)) {
      const md = readFileSync(path, 'utf8');
      const id = ids[name];
      assert(/^[0-9a-f-]{36}$/.test(id), `the ${name}'s Claude Code session id: ${JSON.stringify(id)}`);
      assert(md.includes(`- Agent session: \`${id}\``), `the ${name}'s summary lacks its session ${id}:\n${md}`);
      const resume = md.match(/^- Resume: `(.*)`$/m)?.[1] ?? '';
      assert(resume.startsWith(`cd ${seed.work} && claude --resume ${id}`), `the ${name}'s resume command: ${resume}\n${md}`);
    }

    // They stay in Done (a reload, the panes and runs long gone) until cleared.
    await page.reload();
    for (const key of [termKey, chatKey, runKey]) await page.waitForSelector(inColumn('done', key));
    assert(!(await goCall(page, 'terminal.Service.List')).some((p) => p.id === pane.id), "the ended pane's Claude Code is closed");
    assert(runAfter.state !== 'running' && runAfter.state !== 'paused', `the ended run stopped: ${runAfter.state}`);
    await page.locator(card(runKey)).getByRole('button', { name: /^Open the summary/ }).click();
    const viewer = page.getByRole('dialog', { name: 'Session summary' });
    await viewer.getByRole('heading', { level: 1, name: 'Slow helper' }).waitFor();
    assert((await viewer.textContent()).includes(`claude --resume ${ids['agent run']}`), 'the viewer shows the resume command');
    await shot('sessions-agents-summary');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Clear every card in Done' }).click();
    await until('Done to be cleared', async () => (await page.$$('[data-column="done"] [data-card]')).length === 0);
    await goCall(page, 'roles.Binding.DeleteAgent', agent.id);
  } finally {
    for (const id of [pane.id, ...extra]) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
