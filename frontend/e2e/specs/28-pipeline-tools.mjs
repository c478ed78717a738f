import { assert } from '../lib.mjs';

// Pipeline → Worker tools says which of the articles' worker tools a run
// can really call. Checks:
// 1. Every row of the articles' catalogue is listed.
// 2. web_search and transcribe read "Not offered" with why (the app has no
//    service to back them), never as tools a run gets.
// 3. The four default tools read "Yes, default"; orchestration and the
//    live screen "Yes".
export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/pipeline');
  const table = page.getByRole('table', { name: 'Worker tools' });
  await table.waitFor();
  const row = (name) => table.locator(`[data-tool="${name}"]`);
  await row('memory_search').waitFor();

  // 1.
  const names = await table.locator('[data-tool]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tool')));
  for (const want of ['memory_search', 'web_search', 'extract_content', 'code_search', 'todo_list', 'transcribe', 'cloud_* read tools', 'spawn_fleet, graph_run, loop_run', 'live screen (ui_agent_act)', 'Canvas tools', 'read_file, write_file, execute_command'])
    assert(names.includes(want), `Worker tools lists ${want}: ${names}`);

  // 2.
  for (const [name, why] of [['web_search', 'osFoundry has no web search service'], ['transcribe', 'osFoundry has no speech-to-text service']]) {
    const text = await row(name).innerText();
    assert(text.includes('Not offered') && text.includes(why), `${name} says it is not offered and why: ${text}`);
  }

  // 3.
  for (const name of ['memory_search', 'extract_content', 'code_search', 'todo_list'])
    assert((await row(name).getByRole('cell').nth(1).innerText()).trim() === 'Yes, default', `${name} is offered by default`);
  for (const name of ['spawn_fleet, graph_run, loop_run', 'live screen (ui_agent_act)'])
    assert((await row(name).getByRole('cell').nth(1).innerText()).trim() === 'Yes', `${name} is offered`);
  await table.scrollIntoViewIfNeeded();
  await shot('pipeline-worker-tools');
}
