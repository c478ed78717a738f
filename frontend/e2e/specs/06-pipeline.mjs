import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// The pipeline with the REAL Claude Code (build/agents) against the
// scripted fake model: the External AI tab (discovery, badges, Verify
// sign-in, Sign in), a Local Folder, cli:claude:agent on the Worker role,
// then a chat task whose progress lines stream in while the run works and
// whose final answer, usage and bridge call (memory_search over the
// knowledge folder) are checked.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const push = async (scenario) => assert((await fake(`/_testkit/push?scenario=${scenario}`, { method: 'POST' })).status === 204, `push ${scenario}`);

  // --- External AI tab ---
  await page.goto(base + '/#/terminal');
  await page.getByRole('button', { name: 'Connections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('tab', { name: 'External AI' }).click();
  const claude = dialog.locator('[data-cli="claude"]');
  const codex = dialog.locator('[data-cli="codex"]');
  await claude.getByRole('heading', { name: 'Claude Code' }).waitFor();
  await codex.getByRole('heading', { name: 'Codex' }).waitFor();
  for (const row of [claude, codex]) {
    await row.getByText('Installed', { exact: true }).waitFor();
    const path = await row.locator('.path code').textContent();
    assert(path.includes('build/agents/node_modules/.bin/'), `binary path from PATH, got ${path}`);
  }
  const ids = async (row) => (await row.locator('.model code').allTextContents()).map((s) => s.trim());
  assert(JSON.stringify(await ids(claude)) === '["cli:claude","cli:claude:agent"]', `Claude model ids: ${await ids(claude)}`);
  assert(JSON.stringify(await ids(codex)) === '["cli:codex:agent"]', `Codex model ids: ${await ids(codex)}`);
  await claude.getByText('API key in env', { exact: true }).waitFor();
  await codex.getByText('No live stream', { exact: true }).waitFor();
  assert((await claude.getByText('No live stream').count()) === 0, 'Claude streams live');
  await codex
    .getByText('osFoundry tools require git-worktree isolation for Codex (it trades its own sandbox for git safety). Point it at a git repo folder.', { exact: true })
    .waitFor();
  assert(await claude.getByRole('switch', { name: 'Enabled: Claude Code' }).isChecked(), 'Claude Code is enabled');

  // Verify sign-in runs the real claude through the run's command builder.
  await push('verify');
  await claude.getByRole('button', { name: 'Verify sign-in' }).click();
  await until('✓ Signed in', async () => (await claude.locator('.verify').textContent().catch(() => ''))?.includes('✓ Signed in'), 120000);
  await shot('pipeline-external-ai');

  // Sign in opens a Terminal pane running claude, with the hint.
  await claude.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('status').getByText('Type /login to sign in, then close this window.', { exact: true }).waitFor();
  await until('the Terminal screen on the sign-in pane', async () => page.url().includes('#/terminal?pane='));
  const paneId = new URL(page.url().replace('#', '')).searchParams.get('pane') ?? page.url().split('pane=')[1];
  const pane = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === paneId);
  assert(pane && pane.argv[0].endsWith('/claude') && pane.argv.length === 1, `the sign-in pane runs claude: ${JSON.stringify(pane?.argv)}`);
  await until('Claude Code on the sign-in screen', async () => (await goCall(page, 'terminal.Service.ScreenText', paneId)).join('\n').includes('Claude Code'), 60000);
  await shot('pipeline-sign-in');
  await goCall(page, 'terminal.Service.Close', paneId);
  await page.getByRole('status').filter({ hasText: 'Sign in to Claude Code' }).getByRole('button', { name: 'Dismiss' }).click();

  // --- Settings → Local Folders ---
  await page.goto(base + '/#/settings');
  await page.getByRole('heading', { name: 'Local Folders' }).waitFor();
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByText('Type the full path of a folder').waitFor();
  await page.getByLabel('Folder path').fill(join(tmp, 'no-such-folder'));
  await page.getByRole('button', { name: 'Add folder' }).click();
  await page.getByRole('alert').waitFor();
  await page.getByLabel('Folder path').fill(seed.work);
  await page.getByRole('button', { name: 'Add folder' }).click();
  const row = page.locator(`li[data-folder="${seed.work}"]`);
  await row.getByText('Used by runs').waitFor();
  await shot('pipeline-local-folders');

  // --- Pipeline → Pipeline Roles: cli:claude:agent on Worker ---
  await page.goto(base + '/#/pipeline');
  await page.getByRole('heading', { name: 'Pipeline Roles' }).waitFor();
  const worker = page.locator('[data-role="Worker"]');
  await worker.getByRole('combobox', { name: 'Model for Worker' }).click();
  const list = worker.getByRole('listbox', { name: 'Model for Worker' });
  await list.getByText('External AI (subscription)', { exact: true }).waitFor();
  await list.getByText('autonomous — runs in your local folder', { exact: true }).waitFor();
  const chatMode = list.getByRole('option', { name: /^cli:claude Claude Code — chat/ });
  assert((await chatMode.getAttribute('aria-disabled')) === 'true', 'cli:claude cannot be picked for Worker');
  await chatMode.getByText("'cli:claude' is chat mode", { exact: false }).waitFor();
  const rule = await page.locator('[data-cost-rule]').textContent();
  assert(rule.includes('not billed per token') && rule.includes('at API prices'), `the cost rule on Pipeline: ${rule}`);
  await shot('pipeline-roles-picker');
  await list.getByRole('option', { name: /^cli:claude:agent/ }).click();
  await worker.getByText('Saved').waitFor();
  const roles = await goCall(page, 'roles.Binding.Roles');
  assert(roles.find((r) => r.name === 'Worker').model === 'cli:claude:agent', 'Worker runs on cli:claude:agent');

  // --- Chat: a task, progress lines streaming in, the final answer ---
  await push('chat');
  await page.goto(base + '/#/chat');
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await page.getByLabel('Task').fill('Check the marker, then find our launch checklist');
  await page.getByRole('button', { name: 'Start' }).click();
  const run = page.locator('article[data-run]');
  await run.waitFor();
  const bash = 'Using Bash — {"command":"echo e2e-$((6*7))","description":"Compute the marker"}';
  const search = 'Using memory_search — {"query":"launch checklist"}';
  const lines = () => run.locator('[data-progress]').allTextContents();
  // The first line shows while the run is still going (live, not at the end).
  await until('the first progress line', async () => (await lines()).map((s) => s.trim()).includes(bash), 90000);
  assert((await run.getAttribute('data-state')) === 'running', 'the first progress line arrives while the run works');
  const chatState = await page.locator('aside[aria-label="Chats"] .item.active').textContent();
  assert(chatState.includes('Running'), `the chat shows Running, got ${chatState}`);
  await shot('pipeline-chat-running');
  await until('the memory_search line', async () => (await lines()).map((s) => s.trim()).includes(search), 60000);
  const answer = 'The marker is e2e-42 and your knowledge folder has the launch checklist: ship the beta on Friday.';
  await until('the final answer', async () => ((await run.locator('[data-answer]').textContent().catch(() => '')) ?? '').trim() === answer, 60000);
  assert((await run.getAttribute('data-state')) === 'done', 'the run is done');
  const foot = await run.locator('.foot').textContent();
  // The cost by the app's one rule (as Orchestration words it): subscription,
  // and Claude Code's own figure as an estimate at API prices.
  assert(/tokens · subscription( · ≈\$[\d.]+ at API prices)?( · |$)/.test(foot.trim()) && !foot.includes('(subscription)') && /context [\d,]+ tokens/.test(foot), `usage footer: ${foot}`);
  // The steps fold away once the run is done, and open again.
  await run.getByRole('button', { name: /\d+ steps/ }).click();
  const final = (await lines()).map((s) => s.trim());
  assert(final.indexOf(bash) >= 0 && final.indexOf(search) > final.indexOf(bash), `progress in order: ${final.join(' | ')}`);
  await shot('pipeline-chat-done');

  // What Claude sent back to the model: the shell's output and the app's
  // memory_search result from the knowledge folder, through the bridge.
  const reqs = await (await fake('/_testkit/requests')).json();
  const results = reqs.flatMap((r) => r.toolResults);
  assert(results.some((t) => t.includes('e2e-42')), `the Bash result reached the model: ${results}`);
  assert(results.some((t) => t.includes('"id": "launch-checklist.md"') && t.includes('knowledge_file')), `memory_search found the knowledge file: ${results}`);
  assert(reqs.some((r) => (r.tools ?? []).includes('mcp__osfoundry__memory_search')), 'the bridge offered memory_search');

  // --- Approval: the Worker types into a terminal pane only after Approve ---
  const target = await goCall(page, 'terminal.Service.Create', { dir: seed.work, command: 'cat', cols: 80, rows: 24 });
  await push(`approve&pane=${target.id}`);
  await page.getByLabel('Task').fill('Type the check command into my terminal');
  await page.getByRole('button', { name: 'Send' }).click();
  const prompt = page.getByRole('alertdialog', { name: 'Approve runtime_send?' });
  await prompt.waitFor({ timeout: 90000 });
  const args = await prompt.locator('pre').textContent();
  assert(args.includes(`"id": "${target.id}"`) && args.includes('"text": "echo approved-by-e2e"'), `the prompt shows the arguments: ${args}`);
  await until('the chat in Needs you', async () => (await page.locator('aside[aria-label="Chats"] .item.active').textContent()).includes('Needs you'));
  assert(!(await goCall(page, 'terminal.Service.ScreenText', target.id)).join('\n').includes('approved-by-e2e'), 'nothing is typed before Approve');
  await shot('pipeline-approval');
  await prompt.getByRole('button', { name: 'Approve' }).click();
  await prompt.waitFor({ state: 'detached' });
  await until('the text typed into the pane', async () => (await goCall(page, 'terminal.Service.ScreenText', target.id)).join('\n').includes('echo approved-by-e2e'), 30000);
  const second = page.locator('article[data-run]').nth(1);
  await until('the second answer', async () => ((await second.locator('[data-answer]').textContent().catch(() => '')) ?? '').trim() === 'I typed the check into your terminal.', 60000);
  await second.getByRole('button', { name: /\d+ steps?/ }).click();
  const sent = (await second.locator('[data-progress]').allTextContents()).map((x) => x.trim());
  assert(sent.includes(`Using runtime_send — {"id":"${target.id}","text":"echo approved-by-e2e"}`), `runtime_send progress line: ${sent.join(' | ')}`);
  await goCall(page, 'terminal.Service.Close', target.id);
  await shot('pipeline-approval-done');

  // --- Agents: Model Preference and Runtime Role, then a run outside a chat ---
  await page.goto(base + '/#/agents');
  await page.getByRole('button', { name: 'New agent' }).click();
  await page.getByLabel('Name').fill('Release helper');
  await page.getByLabel('Runtime Role').selectOption('Researcher');
  await page.getByRole('combobox', { name: 'Model Preference' }).click();
  const prefs = page.getByRole('listbox', { name: 'Model Preference' });
  await prefs.getByText('autonomous — runs in your local folder', { exact: true }).waitFor();
  await prefs.getByRole('option', { name: /^cli:claude:agent/ }).click();
  await page.getByRole('button', { name: 'Create agent' }).click();
  await page.getByText('Saved.').waitFor();
  const agents = await goCall(page, 'roles.Binding.Agents');
  const helper = agents.find((a) => a.name === 'Release helper');
  assert(helper && helper.runtimeRole === 'Researcher' && helper.modelPreference === 'cli:claude:agent', `saved agent: ${JSON.stringify(agents)}`);
  await push('verify');
  await page.getByLabel('Task').fill('Reply with ok');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const agentRun = page.locator('article[data-run]');
  await until('the agent run to finish', async () => ((await agentRun.locator('[data-answer]').textContent().catch(() => '')) ?? '').trim() === 'ok', 90000);
  assert((await agentRun.locator('.who').textContent()) === 'Release helper', "the run's card names the agent");
  assert((await agentRun.locator('.as').textContent()) === 'as Researcher', 'the agent plays its Runtime Role');
  await shot('pipeline-agents');

  // --- A chat that isolates its runs: the branch, its diff, Discard branch ---
  await push('worktree');
  await page.goto(base + '/#/chat');
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await page.getByLabel('Isolate runs on a git branch').check();
  await page.getByLabel('Task').fill('Write the release notes');
  await page.getByRole('button', { name: 'Start' }).click();
  const wt = page.locator('article[data-run]');
  await until('the worktree run to finish', async () => ((await wt.locator('[data-answer]').textContent().catch(() => '')) ?? '').trim() === 'Wrote RELEASE-NOTES.md.', 90000);
  const branch = (await wt.locator('.branch code').textContent()).trim();
  assert(branch.startsWith('osf/run-'), `the run's branch: ${branch}`);
  assert((await wt.locator('.stat').textContent()).includes('RELEASE-NOTES.md'), 'the diffstat names the new file');
  await wt.getByRole('button', { name: 'Show diff' }).click();
  assert((await wt.locator('.diff').textContent()).includes('+Ship the beta on Friday.'), 'the diff shows the added line');
  const branches = () => execFileSync('git', ['branch', '--list', 'osf/run-*'], { cwd: seed.work, encoding: 'utf8' }).trim();
  assert(branches() === branch, `the branch is kept in the repository: ${branches()}`);
  assert(!existsSync(join(seed.work, 'RELEASE-NOTES.md')), "the user's own checkout is untouched");
  await shot('pipeline-worktree');
  await wt.getByRole('button', { name: 'Discard branch' }).click();
  await wt.locator('.branch').waitFor({ state: 'detached' });
  assert(branches() === '', `Discard branch deletes it: ${branches()}`);
}
