import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Settings → Tool policy with the REAL Claude Code against the fake model:
// - the section lists the channel "Chats and agent runs" (pipeline) with the
//   app's tools; memory_search set to Off says Saved., is kept across a
//   reload and in the settings file's policy;
// - a chat's Worker then calls memory_search through the bridge: the one
//   executor refuses it with where to turn it back on, and the model reads
//   that; the other steps of the run (its own Bash) still run;
// - set back to Allowed, the channel has no overrides left.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const refusal = 'memory_search is turned off for "pipeline" runs in Settings → Tool policy; ask the user to turn it back on there';

  await page.goto(base + '/#/settings');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);
  const section = page.locator('section[aria-labelledby="policy-title"]');
  await section.getByRole('heading', { name: 'Tool policy' }).waitFor();
  const channel = section.locator('[data-channel="pipeline"]');
  await channel.getByRole('heading', { name: /Chats and agent runs/ }).waitFor();
  const select = channel.getByRole('combobox', { name: 'memory_search on Chats and agent runs' });
  assert((await select.inputValue()) === 'allowed', 'memory_search starts allowed');
  await select.selectOption('off');
  await channel.getByRole('status').getByText('Saved.').waitFor();
  let view = await goCall(page, 'toolpolicy.Binding.Get');
  assert(JSON.stringify(view.channels[0].policy.disabled) === '["memory_search"]', `saved policy: ${JSON.stringify(view.channels[0].policy)}`);
  await page.reload();
  await until('Off still shown after a reload', async () => (await select.inputValue().catch(() => '')) === 'off');
  await shot('tool-policy-off');

  try {
    // Only this run's requests: earlier specs' runs called memory_search too.
    const before = (await (await fake('/_testkit/requests')).json()).length;
    assert((await fake('/_testkit/push?scenario=chat', { method: 'POST' })).status === 204, 'push chat');
    await page.goto(base + '/#/chat');
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
    await page.getByLabel('Task').fill('Find our launch checklist');
    await page.getByRole('button', { name: 'Start' }).click();
    const run = page.locator('article[data-run]');
    await run.waitFor();
    await until('the run to end', async () => (await run.getAttribute('data-state')) === 'done', 120000);
    const results = (await (await fake('/_testkit/requests')).json()).slice(before).flatMap((r) => r.toolResults ?? []);
    assert(results.some((t) => t.includes(refusal)), `the model read the refusal: ${results.join(' | ').slice(0, 600)}`);
    assert(results.some((t) => t.includes('e2e-42')), 'the run’s own Bash step still ran');
    assert(!results.some((t) => t.includes('knowledge_file')), 'memory_search did not run');
  } finally {
    await page.goto(base + '/#/settings');
    await select.selectOption('allowed');
    await channel.getByRole('status').getByText('Saved.').waitFor();
  }
  view = await goCall(page, 'toolpolicy.Binding.Get');
  const p = view.channels[0].policy;
  assert(p.disabled.length === 0 && p.forceApproval.length === 0, `no overrides left: ${JSON.stringify(p)}`);
}
