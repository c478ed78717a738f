import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';
import { claudeTranscript, escape, put } from '../seed/external-agents.mjs';

// "Search in conversations" on External agents:
// - off at first: a phrase said only inside a conversation matches no row,
//   and the list says what the search looks at;
// - ticking it builds the index in the background with its progress shown
//   ("… conversations indexed"), and the same search then lists the
//   session, saying it "matched in conversation";
// - a title match is not labelled as a conversation match;
// - unticking drops the index: the phrase matches nothing again.
export default async function ({ page, base, home, tmp, shot }) {
  const folder = join(tmp, 'work', 'vat-rules');
  mkdirSync(folder, { recursive: true });
  const id = '6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
  put(join(home, '.claude', 'projects', escape(folder), id + '.jsonl'),
    claudeTranscript({ id, cwd: folder, branch: 'main', title: 'Tax questions', firstMessage: 'Which VAT rate applies to Norwegian fish exports?', at: Date.now() - 3 * 3600_000 }));

  await page.goto(base + '/#/external-agents');
  const row = page.locator(`[data-session$=":${id}"]`);
  await row.waitFor({ timeout: 20000 });
  // Off until the person turns it on (another spec may have left it on).
  if ((await goCall(page, 'inventory.Binding.TextSearch')).on) await goCall(page, 'inventory.Binding.SetTextSearch', false);
  await page.reload();
  const toggle = page.getByRole('checkbox', { name: 'Search in conversations' });
  await toggle.waitFor();
  assert(!(await toggle.isChecked()), 'search in conversations starts off');

  const search = page.getByPlaceholder('Search titles, folders, branches', { exact: true });
  await search.fill('norwegian fish');
  await until('no row for a phrase only the conversation holds', async () => (await row.count()) === 0);
  await page.getByText('No session matches “norwegian fish”. Search looks at titles, folders, branches, app names and ids.').waitFor();

  // On: the index is built in the background, then the phrase matches.
  await toggle.check();
  const status = page.locator('[data-text-status]');
  await until('the index to finish', async () => {
    const st = await goCall(page, 'inventory.Binding.TextSearch');
    return !st.running && st.total > 0 && st.indexed === st.total && /^\d+ conversations? indexed/.test((await status.textContent()) ?? '');
  }, 60000);
  await row.waitFor();
  const label = row.locator('[data-text-hit]');
  assert((await label.textContent()).trim() === 'matched in conversation', 'the row says it matched in the conversation');
  await shot('external-agents-text-search');

  // A title match is a title match.
  await search.fill('tax questions');
  await row.waitFor();
  assert((await label.count()) === 0, 'a title match is labelled as a conversation match');

  // Off: the index is dropped and the phrase matches nothing again.
  await toggle.uncheck();
  await search.fill('norwegian fish');
  await until('the conversation match to go with the index', async () => (await row.count()) === 0);
  const st = await goCall(page, 'inventory.Binding.TextSearch');
  assert(!st.on && st.indexed === 0, `after turning it off: ${JSON.stringify(st)}`);
}
