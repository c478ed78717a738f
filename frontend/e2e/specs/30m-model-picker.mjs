import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall, xtermText } from '../lib.mjs';

// The model per agent, from the New pane form to the model API.
// Checks:
//  1. typing `claude` as the command shows a Model select whose first
//     entry is "Default (the CLI's own)", then what the installed Claude
//     Code accepts (its documented aliases sonnet, opus, haiku);
//  2. picking haiku and Start runs `claude --model haiku` (argv, the
//     model its own word) in the real Claude Code, whose request to the
//     model API asks for a Haiku model;
//  3. the pane's rail entry and its Sessions board card show "haiku";
//  4. the next New pane form starts on haiku for claude (remembered per
//     CLI); `codex` lists the installed Codex's own catalogue; a command
//     that names its own model gets no select;
//  5. Pipeline Roles: the Worker's picker gets the same select under
//     cli:claude:agent; opus saves the role as cli:claude:agent@opus;
//  6. New chat starts on the Worker's CLI model (opus) in its own select;
//     picking haiku there runs the chat's task on Haiku (the request to
//     the model API says so) and the chat's header and run card name it;
//  7. a fleet's run picks its own CLI model the same way.
export default async function ({ page, base, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  await fake('/_testkit/reset', { method: 'POST' });

  await page.goto(base + '/#/terminal');
  await page.waitForSelector('.rail-col');
  const before = new Set((await goCall(page, 'terminal.Service.List')).map((p) => p.id));
  await page.getByRole('button', { name: '+ New pane' }).click();
  const form = page.getByRole('form', { name: 'New pane' });
  await form.locator('input[name="dir"]').fill(seed.work);
  await form.locator('input[name="command"]').fill('claude');
  const select = form.locator('select[data-cli-model="claude"]');
  await until('the Model select with the CLI list', async () => (await select.count()) === 1 && (await select.isEnabled()) && (await select.locator('option').count()) > 3);
  const options = await select.locator('option').evaluateAll((os) => os.map((o) => ({ value: o.value, text: o.textContent.trim() })));
  assert(options[0].value === '' && options[0].text === "Default (the CLI's own)", `first option ${JSON.stringify(options[0])}`);
  for (const alias of ['sonnet', 'opus', 'haiku']) assert(options.some((o) => o.value === alias), `no ${alias} in ${JSON.stringify(options)}`);
  await select.selectOption('haiku');
  await shot('30m-new-pane-model');
  await form.getByRole('button', { name: 'Start' }).click();

  let pane;
  await until('the new pane', async () => {
    pane = (await goCall(page, 'terminal.Service.List')).find((p) => !before.has(p.id));
    return !!pane;
  });
  try {
    const i = pane.argv.indexOf('--model');
    assert(pane.argv[0] === 'claude' && i > 0 && pane.argv[i + 1] === 'haiku', `argv ${JSON.stringify(pane.argv)}`);

    // The rail says which model the pane's agent runs.
    const railModel = page.locator(`[data-pane-model="${pane.id}"]`);
    await until('the rail to show the model', async () => (await railModel.count()) === 1 && (await railModel.textContent()).trim() === 'haiku');

    // Claude Code asks the model API for a Haiku model once it gets a task.
    const ready = /\? for shortcuts|\(shift\+tab to cycle\)/;
    await until('Claude Code to be ready for a task', async () => ready.test(await xtermText(page, pane.id)), 45000);
    const view = page.locator(`[data-pane-view="${pane.id}"]`);
    await view.click();
    await page.keyboard.type('say hello');
    await until('the task to be typed', async () => (await xtermText(page, pane.id)).includes('say hello'));
    // Agents of earlier specs may still be talking to the same model API
    // (on their own models); none of them asks for Haiku.
    const haiku = (r) => /haiku/i.test(r.model);
    const before = (await (await fake('/_testkit/requests')).json()).filter(haiku).length;
    await page.keyboard.press('Enter');
    let reqs = [];
    await until('a request to the model for Haiku', async () => {
      reqs = (await (await fake('/_testkit/requests')).json()).filter(haiku);
      return reqs.length > before;
    }, 30000);
    const what = (await page.locator(`[data-pane-what="${pane.id}"]`).textContent()).trim();
    assert(what === 'Claude Code · haiku', `the rail's second line reads "${what}", want "Claude Code · haiku"`);
    await shot('30m-pane-model-rail');

    // The board card shows it too.
    await page.goto(base + '/#/sessions');
    const card = page.locator(`[data-card="terminal/${pane.id}"]`);
    await card.waitFor();
    const cardModel = card.locator(`[data-card-model]`);
    await until('the card to show the model', async () => (await cardModel.count()) === 1 && (await cardModel.textContent()).trim() === 'haiku');
    await shot('30m-board-card-model');
    console.log(`     rail: "${what}", model API asked for ${reqs[0].model}`);

    // The next form remembers haiku for claude; a command with its own model has no select.
    await page.goto(base + '/#/terminal');
    await page.getByRole('button', { name: '+ New pane' }).click();
    const again = page.getByRole('form', { name: 'New pane' });
    await again.locator('input[name="command"]').fill('claude');
    const select2 = again.locator('select[data-cli-model="claude"]');
    await until('the remembered model', async () => (await select2.count()) === 1 && (await select2.isEnabled()) && (await select2.inputValue()) === 'haiku');
    // Codex's list is the installed Codex's own catalogue.
    await again.locator('input[name="command"]').fill('codex');
    const codexSelect = again.locator('select[data-cli-model="codex"]');
    await until('the Codex model list', async () => (await codexSelect.count()) === 1 && (await codexSelect.isEnabled()) && (await codexSelect.locator('option').count()) > 1, 30000);
    const codexOptions = await codexSelect.locator('option').evaluateAll((os) => os.map((o) => o.value));
    const catalogue = await goCall(page, 'agentcli.ModelsBinding.CLIModels', 'codex');
    assert(codexOptions[0] === '' && codexOptions.slice(1).join() === catalogue.models.slice(1).map((m) => m.id).join() && !catalogue.problem, `codex options ${codexOptions} vs ${JSON.stringify(catalogue)}`);
    await shot('30m-new-pane-codex-models');
    await again.locator('input[name="command"]').fill('claude --model opus');
    await again.locator('[data-own-model]').waitFor();
    assert((await select2.count()) === 0, 'a command naming its own model still shows the select');
    if (await again.getByRole('button', { name: 'Cancel' }).count()) await again.getByRole('button', { name: 'Cancel' }).click();
  } finally {
    await goCall(page, 'terminal.Service.Close', pane.id).catch(() => {});
  }

  // Pipeline Roles: the role's model with the CLI's model under it.
  await page.goto(base + '/#/pipeline');
  await page.getByRole('heading', { name: 'Pipeline Roles' }).waitFor();
  const worker = page.locator('[data-role="Worker"]');
  const saved = (await goCall(page, 'roles.Binding.Roles')).find((r) => r.name === 'Worker')?.model ?? '';
  await worker.getByRole('combobox', { name: 'Model for Worker' }).click();
  await worker.getByRole('listbox', { name: 'Model for Worker' }).getByRole('option', { name: /^cli:claude:agent/ }).click();
  const roleSelect = worker.locator('select[data-cli-model="claude"]');
  await until('the role\'s CLI model select', async () => (await roleSelect.count()) === 1 && (await roleSelect.isEnabled()));
  await roleSelect.selectOption('opus');
  await until('the Worker saved on opus', async () => (await goCall(page, 'roles.Binding.Roles')).find((r) => r.name === 'Worker')?.model === 'cli:claude:agent@opus');
  await shot('30m-role-model');

  // New chat starts on the Worker's model and lets this chat pick another.
  await page.goto(base + '/#/chat');
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  const chatSelect = page.locator('select[data-cli-model="claude"]');
  await until('the chat\'s model select on opus', async () => (await chatSelect.count()) === 1 && (await chatSelect.isEnabled()) && (await chatSelect.inputValue()) === 'opus');
  await shot('30m-new-chat-model');
  // This chat picks haiku over the Worker's opus: its run asks for Haiku.
  await goCall(page, 'roles.Binding.AddFolder', seed.work).catch(() => {}); // already there after the pipeline spec
  await page.goto(base + '/#/chat');
  await page.getByRole('heading', { name: 'New chat' }).waitFor();
  await until('the chat\'s model select', async () => (await chatSelect.isEnabled()) && (await chatSelect.inputValue()) === 'opus');
  await chatSelect.selectOption('haiku');
  await fake('/_testkit/reset', { method: 'POST' });
  await page.getByLabel('Task').fill('Say hello from the model picker check');
  await page.getByRole('button', { name: 'Start' }).click();
  let chatReqs = [];
  await until('the chat run to reach the model', async () => {
    chatReqs = (await (await fake('/_testkit/requests')).json()).filter((r) => /haiku/i.test(r.model));
    return chatReqs.length > 0;
  }, 60000);
  const header = page.locator('[data-chat-model]');
  await until('the chat header to name its model', async () => (await header.count()) === 1 && (await header.textContent()).trim() === 'cli:claude:agent@haiku');
  await until('the run card to name its model', async () => ((await page.locator('article[data-run] code.model').first().textContent().catch(() => '')) ?? '').trim() === 'cli:claude:agent@haiku');
  await shot('30m-chat-model');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', saved); // later specs expect the seed's Worker

  // A fleet's run: its own mode and CLI model.
  await page.goto(base + '/#/orchestration');
  const start = page.getByRole('form', { name: 'Start orchestration' });
  // With earlier jobs on the list the form waits behind "+ Start".
  await until('the Start form', async () => {
    if (await start.count()) return true;
    const more = page.getByRole('button', { name: '+ Start' });
    if (await more.count()) await more.click();
    return false;
  });
  await start.getByRole('combobox', { name: 'Model of run 1' }).click();
  await start.getByRole('listbox', { name: 'Model of run 1' }).getByRole('option', { name: /^cli:claude:agent/ }).click();
  const runSelect = start.locator('select[data-cli-model="claude"]');
  await until('the run\'s CLI model select', async () => (await runSelect.count()) === 1 && (await runSelect.isEnabled()));
  await runSelect.selectOption('sonnet');
  await until('the run picker to show its mode', async () => (await start.getByRole('combobox', { name: 'Model of run 1' }).textContent()).includes('cli:claude:agent'));
  assert((await runSelect.inputValue()) === 'sonnet', 'the run keeps sonnet');
  await shot('30m-fleet-model');
}
