import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert } from '../lib.mjs';
import { put } from '../seed/external-agents.mjs';

// Sessions from the desktop apps name what stays in the app's own window,
// in the detail pane, instead of only "open it in <app>":
// - a Claude app session (its Code tab record, written while the app runs):
//   "The Claude app's connectors and artifacts stay in the Claude app", and
//   Open in Terminal still offers `claude --resume`;
// - a Codex app session (a rollout its desktop client wrote): "The Codex
//   app's browser panel and review screen stay in the Codex app".
export default async function ({ page, base, home, tmp, shot }) {
  const folder = join(tmp, 'work', 'desk-notes');
  mkdirSync(folder, { recursive: true });

  const claudeId = 'local_7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
  const cliId = '3f2e1d0c-9b8a-4766-8554-433221100fed';
  const at = Date.UTC(2026, 10, 20, 9, 30, 0);
  put(join(home, '.config', 'Claude', 'claude-code-sessions', 'acct-1', 'org-1', claudeId + '.json'),
    JSON.stringify({ sessionId: claudeId, cliSessionId: cliId, cwd: folder, title: 'Draft the pricing page copy', model: 'claude-opus-4', permissionMode: 'default', lastActivityAt: at }));

  const codexId = '019a7e2c-5d1f-7a20-8b3c-4d5e6f708192';
  const ts = (k) => new Date(at + k * 1000).toISOString();
  const rec = (k, type, payload) => JSON.stringify({ timestamp: ts(k), type, payload }) + '\n';
  put(join(home, '.codex', 'sessions', '2026', '11', '20', `rollout-2026-11-20T09-30-00-${codexId}.jsonl`),
    rec(0, 'session_meta', { id: codexId, timestamp: ts(0), cwd: folder, originator: 'Codex Desktop', cli_version: '0.169.0', source: 'vscode', model_provider: 'openai' }) +
    rec(1, 'event_msg', { type: 'user_message', message: 'Check the landing page in the browser panel', images: [] }) +
    rec(2, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Check the landing page in the browser panel' }] }) +
    rec(3, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The hero image loads late; the rest is fine.' }] }));

  await page.goto(base + '/#/external-agents');
  const search = page.getByPlaceholder('Search titles, folders, branches', { exact: true });
  const stays = page.locator('[aria-label="From the app"] [data-stays-in-app]');

  // The Claude app session.
  await search.fill('pricing page');
  const claudeRow = page.locator('[data-session]', { hasText: 'Draft the pricing page copy' });
  await claudeRow.first().waitFor({ timeout: 30000 });
  await claudeRow.first().click();
  await until('the Claude app note', async () => ((await stays.textContent().catch(() => '')) ?? '').includes('connectors and artifacts'), 20000);
  const claudeNote = (await stays.textContent()).trim();
  assert(claudeNote === "The Claude app's connectors and artifacts stay in the Claude app: Open in Terminal brings the conversation only, where they appear by name.", `Claude app note: ${claudeNote}`);
  await until('the resume command', async () => ((await page.textContent('[data-argv]').catch(() => '')) ?? '').startsWith(`claude --resume ${cliId}`), 20000);
  await shot('external-agents-claude-app-stays');

  // The Codex app session.
  await search.fill('landing page');
  const codexRow = page.locator('[data-session]', { hasText: 'landing page' });
  await codexRow.first().waitFor({ timeout: 30000 });
  await codexRow.first().click();
  await until('the Codex app note', async () => ((await stays.textContent().catch(() => '')) ?? '').includes('browser panel and review screen'), 20000);
  const codexNote = (await stays.textContent()).trim();
  assert(codexNote.startsWith("The Codex app's browser panel and review screen stay in the Codex app"), `Codex app note: ${codexNote}`);
  assert((await page.locator('.sub .app-name').textContent()).trim() === 'Codex app', 'the session is the Codex app\'s');
  await shot('external-agents-codex-app-stays');
}
