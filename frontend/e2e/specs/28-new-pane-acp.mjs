import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall, xtermText, openNewPaneForm } from '../lib.mjs';

// The New pane form's "Agent Client Protocol" choice: nobody types
// `osfoundry acp`, and no `osfoundry` command is on the PATH the app gets
// (the dev build runs from a temp folder, as macOS runs it from its bundle).
// Checks:
// - the choice lists the ACP agents the app knows (Claude Code first) and
//   "Another ACP agent…"; Claude Code starts the app's own binary with
//   `acp -- claude-agent-acp`, which connects;
// - another agent's command is argv (a quoted path with a space in it
//   stays one word), run by the same client: its permission request puts
//   the pane in Needs you, named by the agent, and the answer typed in the
//   pane reaches the agent;
// - the choice needs a command for another agent before Start.
const fakeAdapter = (node) => `#!${node}
// A small ACP agent: every prompt asks one permission, then says which option was chosen.
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let next = 1000;
const waiting = new Map();
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === undefined) {
    const f = waiting.get(m.id);
    waiting.delete(m.id);
    return f && f(m.result);
  }
  if (m.method === 'initialize') return send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: 'fake-acp', version: '0.1' } } });
  if (m.method === 'session/new') return send({ id: m.id, result: { sessionId: 's1', models: { currentModelId: 'default',
    availableModels: [{ modelId: 'default', name: 'Default' }, { modelId: 'claude-haiku', name: 'Haiku' }] } } });
  if (m.method === 'session/set_model') return send({ id: m.id, result: {} });
  if (m.method === 'session/prompt') {
    const id = next++;
    waiting.set(id, (r) => {
      const chose = (r && r.outcome && (r.outcome.optionId || r.outcome.outcome)) || 'nothing';
      send({ method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'fake-acp: you chose ' + chose + '\\n' } } } });
      send({ id: m.id, result: { stopReason: 'end_turn' } });
    });
    return send({ id, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 'call-1', title: 'touch osf-acp-marker' },
      options: [{ optionId: 'once', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } });
  }
  if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: 'not offered' } });
});
`;

export default async function ({ page, base, tmp, bin, env, shot }) {
  assert(!(env.PATH ?? '').split(':').some((d) => d && bin.startsWith(d + '/')), 'the app binary must not be on the PATH for this spec');
  const dir = join(tmp, 'acp', 'work');
  mkdirSync(dir, { recursive: true });
  // Named like Claude's adapter, so the pane is read as Claude Code.
  const fakeDir = join(tmp, 'acp', 'fake adapter');
  mkdirSync(fakeDir, { recursive: true });
  const fake = join(fakeDir, 'claude-agent-acp');
  writeFileSync(fake, fakeAdapter(process.execPath));
  chmodSync(fake, 0o755);

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const form = page.getByRole('form', { name: 'New pane' });
  const open = async () => {
    await openNewPaneForm(page);
    await form.locator('input[name="dir"]').fill(dir);
    await form.getByRole('radio', { name: 'Agent Client Protocol' }).check();
  };
  const created = [];
  const newPane = async (before) =>
    until('the new pane', async () => (await goCall(page, 'terminal.Service.List')).find((p) => !before.includes(p.id)));
  try {
    // 1. Claude Code, the first choice.
    await open();
    const agent = form.locator('select[name="acp-agent"]');
    const names = await until('the agents listed', async () => {
      const n = await agent.locator('option').allTextContents();
      return n.length > 1 && n;
    });
    assert(names[0] === 'Claude Code' && names.includes('Gemini CLI') && names.at(-1) === 'Another ACP agent…', `agents offered: ${JSON.stringify(names)}`);
    assert((await agent.inputValue()) === 'claude', 'Claude Code should be chosen first');
    assert(!(await form.locator('input[name="command"]').isVisible()), 'the command field should give way to the agent');
    const hint = await form.locator('[data-acp-hint]').textContent();
    assert(hint.includes('claude-agent-acp') && hint.includes('Needs you'), `hint: ${hint}`);
    await shot('new-pane-acp-form');
    let before = (await goCall(page, 'terminal.Service.List')).map((p) => p.id);
    await form.getByRole('button', { name: 'Start' }).click();
    const claude = await newPane(before);
    created.push(claude.id);
    assert(JSON.stringify(claude.argv) === JSON.stringify([bin, 'acp', '--', 'claude-agent-acp']), `Claude Code pane argv: ${JSON.stringify(claude.argv)}`);
    await page.waitForSelector(`[data-pane-view="${claude.id}"]`);
    await until('the ACP client to connect to claude-agent-acp', async () => /Connected to .* over ACP/.test(await xtermText(page, claude.id)), 45000).catch(async (e) => {
      throw new Error(`${e.message}\n${await xtermText(page, claude.id)}`);
    });

    // 2. Another agent by its command: a quoted path stays one word.
    await open();
    await agent.selectOption({ label: 'Another ACP agent…' });
    const start = form.getByRole('button', { name: 'Start' });
    assert(await start.isDisabled(), 'Start should wait for the agent command');
    await form.locator('input[name="acp-adapter"]').fill(`"${fake}"`);
    await form.locator('input[name="acp-model"]').fill('haiku');
    before = (await goCall(page, 'terminal.Service.List')).map((p) => p.id);
    await start.click();
    const other = await newPane(before);
    created.push(other.id);
    assert(JSON.stringify(other.argv) === JSON.stringify([bin, 'acp', '--model', 'haiku', '--', fake]), `other pane argv: ${JSON.stringify(other.argv)}`);
    const view = page.locator(`[data-pane-view="${other.id}"]`);
    await view.waitFor();
    await until('the client to connect to the fake agent', async () => (await xtermText(page, other.id)).includes('Connected to fake-acp 0.1 over ACP'));
    await until('the picked model asked of the agent', async () => (await xtermText(page, other.id)).includes('Model: claude-haiku (Haiku).'));
    await view.click();
    await page.keyboard.type('Make the marker');
    await page.keyboard.press('Enter');
    await until('the permission request in the pane', async () => (await xtermText(page, other.id)).includes('Permission needed: touch osf-acp-marker'));
    const label = page.locator(`[data-pane="${other.id}"]`);
    const what = page.locator(`[data-pane-what="${other.id}"]`);
    await until('the rail to say Needs you · work, Claude Code · haiku', async () => (await label.textContent()).trim() === 'Needs you · work' && (await what.textContent()).trim() === 'Claude Code · haiku');
    await shot('new-pane-acp-needs-you');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await until("the agent's answer", async () => (await xtermText(page, other.id)).includes('fake-acp: you chose once'));
    await until('the pane to leave Needs you', async () => !(await label.textContent()).startsWith('Needs you'));
  } finally {
    for (const id of created) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  }
}
