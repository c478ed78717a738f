import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Out of the box with the REAL Claude Code installed (seed/pipeline.mjs):
//  - no role assigned: Pipeline Roles shows Claude Code as the Worker's
//    default, and Chat shows no "no model" notice;
//  - a task started with no Local Folder says how to add one, once, keeps
//    the task typed and leaves no empty chat behind;
//  - a chat that has its own folder (Continue here) never says "No local
//    folder yet", even with no Local Folder added;
//  - a role's prompt opens in full on a click.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  await page.goto(base + '/#/pipeline');
  // Back to a fresh install: no role assigned, no Local Folder.
  for (const r of await goCall(page, 'roles.Binding.Roles')) if (!r.default && r.model) await goCall(page, 'roles.Binding.SetRoleModel', r.name, '');
  for (const f of await goCall(page, 'roles.Binding.Folders')) await goCall(page, 'roles.Binding.RemoveFolder', f.id);
  await page.reload();

  const worker = page.locator('[data-role="Worker"]');
  await worker.getByText('Default: Claude Code is installed', { exact: true }).waitFor();
  assert(((await worker.getByRole('combobox', { name: 'Model for Worker' }).textContent()) ?? '').includes('cli:claude:agent'), 'the Worker picker shows cli:claude:agent');
  const titling = page.locator('[data-role="Titling"]');
  assert(((await titling.getByRole('combobox', { name: 'Model for Titling' }).textContent()) ?? '').includes('cli:claude'), 'Titling defaults to the chat mode');

  // A role's prompt opens in full.
  const prompt = worker.getByRole('button', { name: /^You are the osFoundry Worker/ });
  assert((await prompt.getAttribute('aria-expanded')) === 'false', 'the prompt starts folded');
  const clipped = await prompt.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  assert(clipped, 'a long prompt is folded to two lines at first');
  await prompt.click();
  assert((await prompt.getAttribute('aria-expanded')) === 'true', 'the prompt is open');
  const full = await prompt.evaluate((el) => el.scrollHeight <= el.clientHeight + 1);
  assert(full, 'the open prompt shows in full');
  assert((await prompt.textContent()).trim().endsWith('end with one clear question.'), 'the whole prompt text');
  await shot('pipeline-role-prompt-open');

  // A new chat: no notice about a missing model, one about the folder.
  await page.goto(base + '/#/chat');
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await page.getByText('No local folder yet', { exact: false }).waitFor();
  assert((await page.getByText('has no model yet', { exact: false }).count()) === 0, 'no "no model" notice with Claude Code installed');
  // Starting without a folder: the way to add one is said once, not by
  // the notice and again by the error.
  await page.getByLabel('Task').fill('Tidy the README');
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForTimeout(1000);
  const ways = await page.getByText('Settings → Local Folders', { exact: false }).count();
  assert(ways === 1, `"Settings → Local Folders" is said ${ways} times`);
  await page.getByRole('alert').filter({ hasText: 'No local folder yet' }).waitFor();
  await shot('chat-no-folder-once');
  // Nothing was sent, so no empty chat is left behind; the task is still typed.
  const left = (await goCall(page, 'chat.Binding.Chats')).filter((c) => c.title.startsWith('Tidy the README'));
  assert(left.length === 0, `a chat was left behind by a task that could not start: ${JSON.stringify(left.map((c) => c.title))}`);
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  assert((await page.getByLabel('Task').inputValue()) === 'Tidy the README', 'the task stays typed');

  // A chat with its own folder says nothing about a missing Local Folder.
  const chat = await goCall(page, 'chat.Binding.ContinueHere', 'claude', '0a1b2c3d-1111-4222-8333-444455556666', seed.work, 'Folder chat');
  await page.goto(base + '/#/chat?chat=' + encodeURIComponent(chat.id));
  await page.getByText('Folder chat', { exact: true }).first().waitFor();
  await until('the chat view', async () => (await page.locator('main, .screen').first().textContent()).includes('work-pipeline'));
  await page.waitForTimeout(500);
  assert((await page.getByText('No local folder yet', { exact: false }).count()) === 0, 'a chat with a folder never says "No local folder yet"');
  await shot('chat-own-folder');
  await goCall(page, 'chat.Binding.DeleteChat', chat.id);
}
