import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Titling and Compaction in the Chat screen, with the REAL Claude Code
// (build/agents) against the scripted fake model:
// - with no model picked for Titling, the default Pipeline Roles shows
//   (cli:claude) renames a new chat (named after the first line of its
//   task) after its first answer, live in the chat list and the chat's
//   heading; the fake model answers the titling request with the title
//   pushed for it, never with the chat's scripted answers;
// - Compact has the Compaction role summarise the chat: a marker line
//   "Compacted — earlier turns summarised" shows below the turns it covers
//   (which stay), its summary opens as Markdown, and Compact is greyed out
//   until there is something new;
// - the next task's request to the model carries the summary and the task
//   alone, not the earlier turns.
// Compaction gets its default back at the end.
const roleOf = async (page, name) => (await goCall(page, 'roles.Binding.Roles')).find((r) => r.name === name);

export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const say = async (text) =>
    assert((await fake('/_testkit/push?scenario=say&text=' + encodeURIComponent(text), { method: 'POST' })).status === 204, `push ${text}`);
  const requests = async () => (await (await fake('/_testkit/requests')).json()).filter((r) => r.api === 'anthropic');

  await page.goto(base + '/#/sessions');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);
  await goCall(page, 'roles.Binding.SetRoleModel', 'Titling', '');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Compaction', 'cli:claude');
  try {
    // --- The first answer, then the Titling role's title ---
    const titling = (await roleOf(page, 'Titling'));
    assert(titling.default && titling.model === 'cli:claude', `Pipeline Roles shows Titling as ${JSON.stringify(titling)}`);
    const start = (await requests()).length;
    const titledBefore = (await (await fake('/_testkit/titles')).json()).length;
    // The title is pushed first: it must not answer the chat's task.
    assert((await fake('/_testkit/push?scenario=title&text=' + encodeURIComponent('"Zebra word to remember."'), { method: 'POST' })).status === 204, 'push the title');
    await say('Noted: the word is **zebra**.');
    await page.goto(base + '/#/chat');
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
    await page.getByLabel('Task').fill('Please keep the word zebra for later');
    await page.getByRole('button', { name: 'Start' }).click();
    const answer = page.locator('article[data-run] [data-answer]').first();
    await until('the first answer', async () => ((await answer.textContent().catch(() => '')) ?? '').trim() === 'Noted: the word is zebra.', 90000);
    const active = page.locator('aside[aria-label="Chats"] .item.active');
    assert((await active.textContent()).includes('Please keep the word zebra for later') || (await active.textContent()).includes('Zebra word to remember'), 'the chat is listed');
    await until('the title from the Titling role in the chat list', async () => (await active.textContent()).includes('Zebra word to remember'), 60000);
    await page.getByRole('heading', { name: 'Zebra word to remember', exact: true }).waitFor();
    assert(!(await active.textContent()).includes('Please keep the word'), 'the first-line title is replaced');
    const titled = (await (await fake('/_testkit/titles')).json()).slice(titledBefore);
    assert(titled.length === 1, `one titling request for the chat: ${JSON.stringify(titled)}`);
    await shot('chat-titled-by-default');

    // --- Compact ---
    await say('SUMMARY-4412: the person asked me to keep **zebra** in mind.');
    const compact = page.locator('.actions').getByRole('button', { name: 'Compact', exact: true });
    assert(!(await compact.isDisabled()), 'Compact is offered once the chat has turns');
    await compact.click();
    const marker = page.locator('[data-compaction]');
    await marker.waitFor({ timeout: 90000 });
    assert((await marker.textContent()).includes('Compacted — earlier turns summarised'), `the marker: ${await marker.textContent()}`);
    assert((await marker.textContent()).includes('2 turns summarised by cli:claude'), `the marker's small print: ${await marker.textContent()}`);
    assert((await marker.locator('[data-summary]').count()) === 0, 'the summary starts folded');
    await marker.getByRole('button', { name: 'Show summary' }).click();
    await until('the summary', async () => ((await marker.locator('[data-summary]').textContent().catch(() => '')) ?? '').includes('SUMMARY-4412'));
    assert((await marker.locator('[data-summary] strong').textContent()) === 'zebra', 'the summary is Markdown');
    // The turns stay, above the marker.
    assert((await page.locator('[data-message="user"]').count()) === 1 && (await answer.isVisible()), 'the earlier turns are still shown');
    const above = await page.evaluate(() => {
      const m = document.querySelector('[data-compaction]');
      const a = document.querySelector('article[data-run]');
      return !!(m && a && a.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert(above, 'the marker is below the turns it summarised');
    await until('Compact greyed out with nothing new', async () => compact.isDisabled());
    await shot('chat-compacted');

    // --- The next task is sent the summary, not the earlier turns ---
    const sent = (await requests()).length;
    await say('The word was zebra.');
    await page.getByLabel('Task').fill('What was the word?');
    await page.getByRole('button', { name: 'Send' }).click();
    const second = page.locator('article[data-run] [data-answer]').nth(1);
    await until('the answer after Compact', async () => ((await second.textContent().catch(() => '')) ?? '').trim() === 'The word was zebra.', 90000);
    // Without Compact the run would continue the chat's session and send the
    // first task and its answer again; it starts a new one from the summary.
    const all = await requests();
    const first = all[start];
    const next = all[all.length - 1];
    assert(all.length > sent && next.turn >= 0, 'the task after Compact reached the model');
    assert(next.messages <= first.messages, `the request after Compact carries ${next.messages} messages, the first task's ${first.messages}`);
    assert(!(await compact.isDisabled()), 'Compact is offered again after a new turn');
  } finally {
    await goCall(page, 'roles.Binding.SetRoleModel', 'Compaction', '');
  }
}
