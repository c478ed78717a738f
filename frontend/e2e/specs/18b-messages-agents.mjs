import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Agents in Message channels, with the REAL Claude Code (build/agents)
// against the scripted fake model. Checks:
// 1. A channel's Add agent sheet adds Claude Code as @helper with a role;
//    choosing Codex says this harness cannot enforce its tool scope.
// 2. A post that mentions @helper starts a Worker run of Claude Code in the
//    app's run engine, and its answer appears live as a reply by helper,
//    signed with that run ("agent · run <id>"), stored as author
//    bridge:<run id> in reply to the post.
// (What the run is given, and that a post mentioning nobody starts no run:
// backend/messages' tests.)
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const conn = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  const fake = (path, init) => fetch(seed.url + path, init);
  const requests = async () => (await (await fake('/_testkit/requests')).json()).filter((r) => r.api === 'anthropic');

  await page.goto(base + '/#/sessions');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);
  const ch = await goCall(page, 'messages.Binding.CreateChannel', conn.ws, conn.launch, 'release-room', false);
  await goCall(page, 'messages.Binding.Post', ch.id, 'The launch checklist says: ship the beta on Friday.', '');

  // 1. Add agent.
  await page.goto(base + '/#/messages');
  await page.locator(`[data-channel="${ch.id}"]`).click();
  await until('the open channel', async () => (await page.locator('[data-channel-name]').textContent())?.includes('release-room'));
  await page.getByRole('button', { name: 'Add agent' }).click();
  const sheet = page.getByRole('dialog', { name: 'Add agent' });
  await sheet.waitFor();
  assert((await sheet.locator('[data-codex-scope]').count()) === 0, 'no Codex note while Claude Code is chosen');
  await sheet.getByLabel('Codex').check();
  const note = (await sheet.locator('[data-codex-scope]').textContent()).trim();
  assert(note.startsWith('This harness cannot enforce the tool scope for Codex'), `the Codex note: ${note}`);
  await shot('messages-add-agent-codex');
  await sheet.getByLabel('Claude Code').check();
  await sheet.getByLabel('Name').fill('helper');
  await until('the roles', async () => (await sheet.getByLabel('Role').locator('option').count()) > 1);
  await sheet.getByLabel('Role').selectOption('Worker');
  await sheet.getByRole('button', { name: 'Add agent' }).click();
  await sheet.waitFor({ state: 'detached' });
  const chip = page.locator('[data-agent="helper"]');
  assert((await chip.textContent()).replace(/\s+/g, ' ').includes('@helper Claude Code · Worker'), `the agent chip: ${await chip.textContent()}`);

  // 2. A mention starts the agent's run; its answer is signed with it.
  const before = (await requests()).length;
  assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent('We ship the beta on **Friday**.'), { method: 'POST' })).status === 204, 'push the answer');
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('@helper when do we ship the beta?');
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  const answer = page.locator('[data-message][data-kind="assistant"]');
  await answer.waitFor({ timeout: 120000 });
  assert((await answer.locator('[data-author]').textContent()) === 'helper', 'the answer is by helper');
  await answer.locator('strong', { hasText: 'Friday' }).waitFor();
  const runID = await answer.locator('[data-run]').getAttribute('data-run');
  assert(runID && (await answer.locator('[data-run]').textContent()).trim() === `agent · run ${runID}`, 'the answer is signed with its run');
  const run = await goCall(page, 'chat.Binding.GetRun', runID);
  assert(run.state === 'done' && run.text.includes('Friday') && run.role === 'Worker', `the run: ${JSON.stringify({ state: run.state, role: run.role, text: run.text })}`);
  const sent = (await requests()).slice(before);
  assert(sent.length > 0 && sent.some((r) => (r.tools ?? []).includes('Bash')), 'the run was Claude Code with its tools');
  const stored = await goCall(page, 'messages.Binding.Messages', ch.id);
  const reply = stored.find((m) => m.author_kind === 'assistant');
  const asked = stored.find((m) => m.text === '@helper when do we ship the beta?');
  assert(reply.author === 'bridge:' + runID && reply.reply_to === asked.id, `the stored reply: ${JSON.stringify(reply)}`);
  await shot('messages-agent-answer');
}
