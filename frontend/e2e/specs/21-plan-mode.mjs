import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Plan mode with the REAL Claude Code (build/agents) against the fake model.
// Checks, in order:
// - the model picker's section for the CLI models is "CLI agents", provider
//   "External AI (subscription)", "autonomous — runs in your local folder";
// - a chat started with Plan mode checked: the Worker asks to type into a
//   terminal pane (runtime_send, a tool that changes things); the executor
//   refuses it at once with "plan mode: runtime_send changes things; switch
//   plan mode off in the chat to allow it" — no approval prompt, nothing
//   typed — and the model reads that error;
//   Claude Code is not offered its own writing tools (Bash, Edit, Write);
// - the open chat shows Plan mode on and switches it off, which is kept;
// - a run from the Agents screen with Plan mode checked is refused the same way.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const refusal = 'plan mode: runtime_send changes things; switch plan mode off in the chat to allow it';

  await page.goto(base + '/#/pipeline');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);
  await page.reload();
  const worker = page.locator('[data-role="Worker"]');
  await worker.getByRole('combobox', { name: 'Model for Worker' }).click();
  const list = worker.getByRole('listbox', { name: 'Model for Worker' });
  await list.getByText('CLI agents', { exact: true }).waitFor();
  await list.getByText('External AI (subscription)', { exact: true }).waitFor();
  await list.getByText('autonomous — runs in your local folder', { exact: true }).waitFor();
  await shot('plan-mode-picker');
  await page.keyboard.press('Escape');

  const target = await goCall(page, 'terminal.Service.Create', { dir: seed.work, command: 'cat', cols: 80, rows: 24 });
  try {
    const before = (await (await fake('/_testkit/requests')).json()).length;
    assert((await fake(`/_testkit/push?scenario=approve&pane=${target.id}`, { method: 'POST' })).status === 204, 'push approve');
    await page.goto(base + '/#/chat');
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
    await page.getByRole('checkbox', { name: 'Plan mode' }).check();
    await page.getByLabel('Task').fill('Plan how to type the check into my terminal');
    await page.getByRole('button', { name: 'Start' }).click();
    await until('the chat in the route', async () => page.url().includes('chat='));
    const chatId = decodeURIComponent(page.url().split('chat=')[1]);
    const run = page.locator('article[data-run]');
    await run.waitFor();
    // The scripted model goes on to its last turn once it has read the refusal.
    await until('the run to end', async () => (await run.getAttribute('data-state')) === 'done', 120000);
    const reqs = (await (await fake('/_testkit/requests')).json()).slice(before);
    const results = reqs.flatMap((r) => r.toolResults ?? []);
    const offered = reqs.filter((r) => (r.tools ?? []).includes('Read'));
    assert(offered.length > 0 && offered.every((r) => !['Bash', 'Edit', 'Write'].some((t) => r.tools.includes(t))), `plan mode offered Claude Code's writing tools: ${JSON.stringify(offered.map((r) => r.tools))}`);
    assert(results.some((t) => t.includes(refusal)), `the model read the plan-mode refusal: ${results.join(' | ').slice(0, 600)}`);
    assert((await page.locator('[data-approval]').count()) === 0, 'plan mode asked for no approval');
    assert(!(await goCall(page, 'terminal.Service.ScreenText', target.id)).join('\n').includes('approved-by-e2e'), 'nothing was typed into the pane');

    // The open chat shows plan mode on, and switches it off for its next task.
    const toggle = page.locator('[data-plan-mode]');
    assert((await toggle.getAttribute('data-plan-mode')) === 'on', 'the open chat shows Plan mode on');
    await toggle.getByText('Tools that change things are refused.').waitFor();
    const item = page.locator(`aside[aria-label="Chats"] [data-chat="${chatId}"]`);
    await item.locator('[data-plan]', { hasText: 'Plan' }).waitFor();
    await shot('plan-mode-chat');
    await toggle.getByRole('checkbox', { name: 'Plan mode' }).uncheck();
    await until('plan mode off', async () => (await toggle.getAttribute('data-plan-mode')) === 'off');
    await until('the chat list without the Plan tag', async () => (await item.locator('[data-plan]').count()) === 0);
    const saved = await goCall(page, 'chat.Binding.GetChat', chatId);
    assert(saved.chat.planMode === false, `plan mode saved off: ${JSON.stringify(saved.chat)}`);
    await page.reload();
    await until('plan mode still off after a reload', async () => (await page.locator('[data-plan-mode]').getAttribute('data-plan-mode')) === 'off');
  } finally {
    await goCall(page, 'terminal.Service.Close', target.id).catch(() => {});
  }

  // A run from the Agents screen in plan mode: the same refusal, nothing typed.
  const pane = await goCall(page, 'terminal.Service.Create', { dir: seed.work, command: 'cat', cols: 80, rows: 24 });
  try {
    await goCall(page, 'roles.Binding.SaveAgent', { id: '', name: 'Planner', modelPreference: 'cli:claude:agent', runtimeRole: 'Worker', instructions: '' });
    const before = (await (await fake('/_testkit/requests')).json()).length;
    assert((await fake(`/_testkit/push?scenario=approve&pane=${pane.id}`, { method: 'POST' })).status === 204, 'push approve');
    await page.goto(base + '/#/agents');
    await page.locator('aside[aria-label="Agents"]').getByRole('button', { name: /^Planner/ }).click();
    await page.getByRole('checkbox', { name: 'Plan mode' }).check();
    await page.getByLabel('Task').fill('Plan how to type the check into my terminal');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const run = page.locator('article[data-run]');
    await run.waitFor();
    await until('the agent run to end', async () => (await run.getAttribute('data-state')) === 'done', 120000);
    const results = (await (await fake('/_testkit/requests')).json()).slice(before).flatMap((r) => r.toolResults ?? []);
    assert(results.some((t) => t.includes(refusal)), `the agent run's model read the plan-mode refusal: ${results.join(' | ').slice(0, 600)}`);
    assert((await page.locator('[data-approval]').count()) === 0, 'plan mode asked for no approval on the agent run');
    assert(!(await goCall(page, 'terminal.Service.ScreenText', pane.id)).join('\n').includes('approved-by-e2e'), 'the agent run typed nothing into the pane');
    await shot('plan-mode-agent');
  } finally {
    await goCall(page, 'terminal.Service.Close', pane.id).catch(() => {});
  }
}
