import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert, goCall } from '../lib.mjs';

// Connected agents → Projects says what adding a project opens. Checks:
// 1. The panel names the workspace under its title: for a pending
//    connection, the only workspace, or that the consent chooses it.
// 2. Add to project lists, under each project, its knowledge bases, Record
//    channels and discussion channel (created with the project).
// 3. A knowledge base and a Record channel created while the menu is open
//    (with the owner commands, as another window or a script would) appear
//    under the project without reopening anything.
// 4. An added project keeps showing what it opens, and follows later
//    additions too.
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');

export default async function ({ page, base, env, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'connected-seed.json'), 'utf8'));
  const cli = async (...args) => (await run(bin, args, { env })).stdout.trim();
  const roadmap = await cli('notes', 'project-create', seed.ws, 'Roadmap');

  await page.goto(base + '/');
  await page.getByRole('button', { name: 'Connections' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connections' });
  await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();
  await dialog.getByRole('radio', { name: 'Other MCP client' }).click();
  await dialog.getByLabel('Display name').fill('Opens bot');
  await dialog.getByRole('button', { name: 'Add assistant' }).click();
  await dialog.locator('[data-connection-detail] h3', { hasText: 'Opens bot' }).waitFor();

  // 1. The workspace under the title.
  const wss = await goCall(page, 'notesres.Picker.Workspaces');
  const wsLine = dialog.locator('[data-panel-workspace]');
  const wantWs = wss.length === 1 ? 'Workspace: Acme' : 'Workspace: chosen when you approve the assistant';
  await until(`"${wantWs}" under the title`, async () => (await wsLine.textContent())?.trim() === wantWs);

  // 2. What each project opens.
  await dialog.getByRole('button', { name: 'Add to project' }).click();
  const menu = dialog.getByRole('menu', { name: 'Choose a project' });
  const opens = menu.locator(`[data-pick-project="${roadmap}"] [data-opens]`);
  await until('Roadmap opens its discussion channel', async () => (await opens.textContent())?.trim() === '#discussion');
  const launchOpens = (await menu.locator(`[data-pick-project="${seed.launch}"] [data-opens]`).textContent()) ?? '';
  assert(launchOpens.includes('#discussion'), `Launch lists its discussion channel: ${launchOpens}`);

  // 3. Added while the menu is open.
  await cli('knowledge', 'create', seed.ws, 'Roadmap FAQ', '--project', roadmap);
  await cli('records', 'channel-create', seed.ws, 'Roadmap pages', '--project', roadmap, '--statuses', 'Draft,Ready');
  const want = 'Knowledge: Roadmap FAQ · Records: Roadmap pages · #discussion';
  await until(`"${want}" in the open menu`, async () => (await opens.textContent())?.trim() === want);
  assert(await menu.isVisible(), 'the menu stayed open while it updated');
  await shot('connected-opens');

  // 4. The added project keeps saying what it opens.
  await menu.getByRole('menuitem', { name: 'Roadmap' }).click();
  const row = dialog.locator(`[data-added-project="${roadmap}"]`);
  await until('the added project lists what it opens', async () => (await row.textContent())?.includes(want));
  await cli('knowledge', 'create', seed.ws, 'Roadmap decisions', '--project', roadmap);
  const want2 = 'Knowledge: Roadmap decisions, Roadmap FAQ · Records: Roadmap pages · #discussion';
  await until(`"${want2}" after another knowledge base`, async () => (await row.textContent())?.includes(want2));
}
