import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';
import { claudeTranscript, escape, put } from '../seed/external-agents.mjs';

// Continue here with the REAL Claude Code (build/agents, first on the app's
// PATH through the pipeline seed) against the scripted fake model, on a
// Claude Code session the user made elsewhere (written while the app runs):
// - the chat opens with the session's earlier conversation above its turns;
// - a task sent there runs `claude -p --resume <id> --fork-session`: the
//   model gets the earlier turns (their tool results reach it), the chat
//   continues a new session id, and the user's session file keeps every
//   byte and its modification time.
export default async function ({ page, base, home, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);

  const folder = join(tmp, 'work', 'invoices');
  mkdirSync(folder, { recursive: true });
  execFileSync('git', ['-C', folder, 'init', '-q', '-b', 'main'], { stdio: 'ignore' });
  const id = '3c8d2f61-9a4b-4e7c-8d15-6f0a1b2c3d4e';
  const title = 'Norwegian VAT on invoices';
  const firstMessage = 'Which VAT rate applies to invoices for Norway?';
  const file = join(home, '.claude', 'projects', escape(folder), id + '.jsonl');
  // Claude Code rebuilds a conversation by following parentUuid from its
  // newest record, so the records are chained as Claude Code writes them.
  let parent = null;
  const chained = claudeTranscript({ id, cwd: folder, branch: 'main', title, firstMessage })
    .replaceAll('shop/payments', 'invoices/norway-vat')
    .trim()
    .split('\n')
    .map((l) => {
      const rec = JSON.parse(l);
      if (rec.uuid) {
        rec.parentUuid = parent;
        parent = rec.uuid;
      }
      return JSON.stringify(rec);
    })
    .join('\n');
  put(file, chained + '\n', Date.now() - 3 * 3600_000);
  const sha = () => createHash('sha256').update(readFileSync(file)).digest('hex');
  const before = { sha: sha(), mtime: statSync(file).mtimeMs, size: statSync(file).size };

  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent').catch(async () => {
    await page.goto(base + '/#/external-agents');
    return goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  });

  await page.goto(base + '/#/external-agents');
  await page.getByPlaceholder('Search titles, folders, branches', { exact: true }).fill('Norwegian VAT');
  const row = page.locator(`[data-session$=":${id}"]`);
  await row.waitFor({ timeout: 20000 });
  await row.click();
  await page.getByRole('button', { name: 'Continue here' }).click();
  await page.waitForURL(/#\/chat\?chat=/, { timeout: 20000 });
  const chatId = decodeURIComponent(new URL(page.url()).hash.split('chat=')[1]);

  // The earlier conversation shows above the chat's own turns.
  const thread = page.locator('.thread');
  await thread.locator('[data-message="user"]', { hasText: firstMessage }).waitFor();
  await thread.locator('[data-message="earlier"]', { hasText: 'Running the payment tests (round 1).' }).waitFor();
  assert((await thread.locator('[data-message="earlier"] .who').first().textContent()) === 'Claude Code · earlier', 'earlier answers are labelled');
  assert((await thread.locator('article[data-run]').count()) === 0, 'earlier answers are not shown as runs');
  const d0 = await goCall(page, 'chat.Binding.GetChat', chatId);
  assert(d0.chat.cliAgent === 'claude' && d0.chat.cliSession === id && d0.chat.folder === folder, `continued chat: ${JSON.stringify(d0.chat)}`);
  assert(d0.messages[0].role === 'user' && d0.messages[0].text === firstMessage && d0.messages.length === 3,
    `earlier conversation: ${JSON.stringify(d0.messages.map((m) => [m.role, m.text]))}`);
  await shot('continue-here-earlier');

  // A task: the real claude forks the session.
  const task = 'Continue: which file holds the VAT table?';
  await page.getByLabel('Task').fill(task);
  await page.getByRole('button', { name: 'Send' }).click();
  const run = thread.locator('article[data-run]:not([data-run^="m"])');
  await run.waitFor();
  await until('the continued run to finish', async () => ['done', 'failed'].includes(await run.getAttribute('data-state')), 120000);
  const d1 = await goCall(page, 'chat.Binding.GetChat', chatId);
  const r = d1.runs[0];
  assert((await run.getAttribute('data-state')) === 'done', `run: ${r?.state} ${r?.error}`);

  // The run's request (the newest the model got) carries the earlier turns.
  const reqs = await (await fake('/_testkit/requests')).json();
  const last = reqs.at(-1);
  assert(last?.toolResults.some((t) => t.includes('invoices/norway-vat')), `the continued run did not carry the earlier turns: ${JSON.stringify(last?.toolResults)}`);

  assert(r.sessionId && r.sessionId !== id, `the run wrote to session ${r.sessionId}, want a fork of ${id}`);
  assert(d1.chat.cliSession === r.sessionId, `the chat continues ${d1.chat.cliSession}, want the fork ${r.sessionId}`);
  // The earlier conversation stays above the new turns.
  const order = await thread.evaluate((el) => [...el.children].map((c) => c.getAttribute('data-message') ?? (c.hasAttribute('data-run') ? 'run' : '')));
  assert(JSON.stringify(order) === JSON.stringify(['user', 'earlier', 'earlier', 'user', 'run']), `thread order: ${order}`);
  const after = { sha: sha(), mtime: statSync(file).mtimeMs, size: statSync(file).size };
  assert(JSON.stringify(after) === JSON.stringify(before), `the user's session file changed: ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  await shot('continue-here-done');
}
