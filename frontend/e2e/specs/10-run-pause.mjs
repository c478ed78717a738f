import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall } from '../lib.mjs';

// Pause and Resume of a chat's run, with the REAL Claude Code (build/agents)
// on a turn the fake model holds for a minute ("slow"). The chat view pauses
// it: the run card reads Paused (no spinner, "Paused — resume to continue"),
// the chat reads Paused, the task box says to resume, and sending is refused
// with what to do; a second window on the Sessions board watches the chat's
// card go Running → Paused → Running. Paused again, End chat ends it. Then
// the same on the Agents screen, whose run card has Pause and Resume.
/** claudeStates lists the state letters of the Claude Code processes working in dir. */
function claudeStates(dir) {
  const out = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== dir || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('claude')) continue;
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      out.push(st.slice(st.lastIndexOf(')') + 2).split(' ')[0]);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return out;
}

const results = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results');

export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const requests = async () => (await (await fake('/_testkit/requests')).json()).length;

  // The set-up 06 does through its screens (this spec also runs alone).
  await page.goto(base + '/#/chat');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);

  const before = await requests();
  assert((await fake('/_testkit/push?scenario=slow', { method: 'POST' })).status === 204, 'push slow');
  await page.reload();
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await page.getByLabel('Task').fill('Take your time on the release checklist');
  await page.getByRole('button', { name: 'Start' }).click();
  await until('the chat in the route', async () => page.url().includes('chat='));
  const chatId = decodeURIComponent(page.url().split('chat=')[1]);
  const run = page.locator('article[data-run]');
  await run.waitFor();
  // Claude Code is waiting on the held turn: the run is really working.
  await until('Claude Code to ask the model', async () => (await requests()) > before, 90000);
  assert((await run.getAttribute('data-state')) === 'running', 'the run works before Pause');
  const running = claudeStates(seed.work);
  assert(running.length > 0 && !running.includes('T'), `Claude Code runs in the folder before Pause: ${running}`);

  const board = await page.context().browser().newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await board.goto(base + '/#/sessions');
    const card = `[data-card="pipeline/${chatId}"]`;
    const inColumn = (col) => `[data-column="${col}"] ${card}`;
    await board.waitForSelector(inColumn('running'), { timeout: 10000 });

    // Pause from the chat view.
    const head = page.locator('.head .actions');
    await head.getByRole('button', { name: 'Pause', exact: true }).click();
    await until('the run card to read Paused', async () => (await run.getAttribute('data-state')) === 'paused');
    assert((await run.locator('.state').textContent()).trim() === 'Paused', 'the run card label');
    assert((await run.locator('.spin').count()) === 0, 'no spinner on a paused run');
    assert((await run.getByRole('status').textContent()).trim() === 'Paused — resume to continue', 'the paused line on the run card');
    assert((await page.locator('.head .state').textContent()).trim() === 'Paused', 'the chat header reads Paused');
    assert((await page.locator(`aside[aria-label="Chats"] [data-chat="${chatId}"]`).textContent()).includes('Paused'), 'the chat list reads Paused');
    const box = page.getByLabel('Task');
    assert((await box.getAttribute('placeholder')) === 'Paused — resume to continue', `the task box: ${await box.getAttribute('placeholder')}`);
    const frozen = claudeStates(seed.work);
    assert(frozen.length > 0 && frozen.every((s) => s === 'T'), `Claude Code is stopped while paused: ${frozen}`);
    await head.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    await shot('run-pause-chat-paused');
    await box.fill('One more thing');
    assert(await page.getByRole('button', { name: 'Send' }).isDisabled(), 'Send is off while the run is paused');
    const refused = await goCall(page, 'chat.Binding.Send', chatId, 'One more thing').then(
      () => '',
      (e) => String(e?.message ?? e),
    );
    assert(refused.includes("This chat's run is paused. Resume it, or end the chat."), `sending to the paused chat: ${refused}`);
    const got = await goCall(page, 'chat.Binding.GetChat', chatId);
    assert(got.runs.length === 1 && got.runs[0].state === 'paused', `the chat's runs: ${JSON.stringify(got.runs.map((r) => r.state))}`);
    await box.fill('');

    await board.waitForSelector(inColumn('paused'), { timeout: 5000 });
    const why = await board.textContent(card);
    assert(why.includes('Paused — Claude Code is frozen until you resume it'), `the paused card: ${why}`);
    await board.screenshot({ path: join(results, 'run-pause-board-paused.png') });

    // Resume: the run works again, the card is back in Running.
    await head.getByRole('button', { name: 'Resume', exact: true }).click();
    await until('the run card to read Running', async () => (await run.getAttribute('data-state')) === 'running');
    await run.locator('.spin').waitFor();
    assert((await box.getAttribute('placeholder')).startsWith('The run is going'), 'the task box after Resume');
    const resumed = claudeStates(seed.work);
    assert(resumed.length > 0 && !resumed.includes('T'), `Claude Code runs again after Resume: ${resumed}`);
    await board.waitForSelector(inColumn('running'), { timeout: 5000 });
    await shot('run-pause-chat-resumed');
    await board.screenshot({ path: join(results, 'run-pause-board-resumed.png') });

    // Paused again, End chat ends the frozen run and the chat.
    await head.getByRole('button', { name: 'Pause', exact: true }).click();
    await board.waitForSelector(inColumn('paused'), { timeout: 5000 });
    await head.getByRole('button', { name: 'End chat' }).click();
    await page.getByText('This chat has ended. Start a new chat to give another task.').waitFor();
    await until('the run to end as cancelled', async () => (await run.getAttribute('data-state')) === 'failed');
    await board.waitForSelector(inColumn('done'), { timeout: 5000 });

    // The Agents screen: Pause on its running run, Resume on the paused one.
    const agent = await goCall(page, 'roles.Binding.SaveAgent', { id: '', name: 'Slow helper', modelPreference: 'cli:claude:agent', runtimeRole: 'Worker', instructions: '' });
    const asked = await requests();
    assert((await fake('/_testkit/push?scenario=slow', { method: 'POST' })).status === 204, 'push slow');
    await page.goto(base + '/#/agents');
    await page.locator('aside[aria-label="Agents"]').getByRole('button', { name: /^Slow helper/ }).click();
    await page.getByLabel('Task').fill('Take your time');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const agentRun = page.locator('article[data-run]');
    await until('the agent run to ask the model', async () => (await requests()) > asked, 90000);
    const agentCard = `[data-card="pipeline/${await agentRun.getAttribute('data-run')}"]`;
    await board.waitForSelector(`[data-column="running"] ${agentCard}`, { timeout: 10000 });
    await agentRun.getByRole('button', { name: 'Pause', exact: true }).click();
    await until('the agent run to read Paused', async () => (await agentRun.getAttribute('data-state')) === 'paused');
    assert((await page.getByLabel('Task').getAttribute('placeholder')) === 'Paused — resume to continue', 'the agent task box while paused');
    await board.waitForSelector(`[data-column="paused"] ${agentCard}`, { timeout: 5000 });
    await shot('run-pause-agent-paused');
    await agentRun.getByRole('button', { name: 'Resume', exact: true }).click();
    await until('the agent run to read Running', async () => (await agentRun.getAttribute('data-state')) === 'running');
    await board.waitForSelector(`[data-column="running"] ${agentCard}`, { timeout: 5000 });
    await agentRun.getByRole('button', { name: 'Cancel' }).click();
    await until('the agent run to end', async () => (await agentRun.getAttribute('data-state')) === 'failed');
    await goCall(page, 'roles.Binding.DeleteAgent', agent.id);
  } finally {
    await board.close();
  }
}
