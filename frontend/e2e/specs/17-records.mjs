import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert } from '../lib.mjs';

// Records end to end: the person creates a Record channel with its
// statuses, adds an item, edits its body, moves its status on the board,
// while an agent edits the same item from another process
// (`osfoundry notes tool edit_record_item` with expected_version and an
// idempotency key: the same handler the bridge and the Connected endpoint
// run). The board and a clean editor follow the agent live; unsaved typing
// is never clobbered — the conflict banner offers compare and re-apply, and
// re-apply saves with no lost line. A status outside the channel's list is
// refused with the list, for the agent and the owner command alike.
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');

export default async function ({ page, base, env, shot }) {
  await page.goto(base + '/#/records');
  await page.locator('[data-route="/records"]').waitFor();
  await page.getByRole('button', { name: '+ New channel' }).click();
  await page.getByLabel('Name').fill('E2E website pages');
  await page.getByLabel('Statuses, in board order, separated by commas').fill('Draft, Review, Ready');
  await page.getByRole('button', { name: 'Create channel' }).click();
  const board = page.locator('[data-record-board]');
  await board.waitFor();
  const channel = await board.getAttribute('data-record-board');
  const columns = await page.locator('[data-status-column]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status-column')));
  assert(JSON.stringify(columns) === '["Draft","Review","Ready"]', `the board has a column per status in order: ${columns}`);
  const workspace = await page.evaluate(async (id) => (await window.go.notes.RecordsBinding.Channel(id)).workspace_id, channel);

  // 1. Add an item: it lands in the first status and opens.
  await page.getByLabel('New record title').fill('Pricing page');
  await page.getByRole('button', { name: 'Add record' }).click();
  const view = page.locator('[data-record-view]');
  await view.waitFor();
  const item = await view.getAttribute('data-record-view');
  await page.locator(`[data-status-column="Draft"] [data-record="${item}"]`).waitFor();

  const tool = async (name, args) => {
    try {
      const { stdout } = await run(bin, ['notes', 'tool', '-workspace', workspace, name, JSON.stringify(args)], { env });
      return JSON.parse(stdout);
    } catch (e) {
      if (e.stdout) return { refused: true, text: e.stdout };
      throw e;
    }
  };
  const stored = async () => tool('read_record_item', { record_channel_id: channel, item_id: item });
  let keys = 0;
  // The agent does what the tool description asks: read, re-apply its
  // change to what is stored, write with that version and a new key.
  const agentEdits = async (change) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cur = await stored();
      const r = await tool('edit_record_item', {
        record_channel_id: channel, item_id: item, expected_version: cur.version, idempotency_key: `e2e-records-${++keys}`,
        values: change(cur),
      });
      if (r.status === 'saved') return r.version;
    }
    throw new Error('the agent could not write in 3 tries');
  };
  const body = page.getByLabel('Record body');
  const status = page.locator('[data-save-status]');
  const version = () => page.locator('[data-record-version]').textContent();

  // 2. Edit the body and save.
  await body.click();
  await page.keyboard.type('# Pricing\n- person line 1');
  await until('the unsaved status', async () => (await status.textContent()).startsWith('Unsaved changes'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await until('the save', async () => (await status.textContent()) === 'Saved' && (await version()) === 'version 2');
  assert((await stored()).fields.body === '# Pricing\n- person line 1', 'the item holds what the person saved');

  // 3. Move the status on the board.
  await page.getByLabel('Status of Pricing page').selectOption('Review');
  await page.locator(`[data-status-column="Review"] [data-record="${item}"]`).waitFor();
  await until('the stored move', async () => (await stored()).status === 'Review');
  assert((await stored()).fields.body === '# Pricing\n- person line 1', 'a move keeps the body');
  await shot('records-board');

  // 4. The agent's edit shows up live: the card moves, the clean editor follows.
  await agentEdits((cur) => ({ status: 'Ready', body: cur.fields.body + '\n- agent line 1' }));
  await page.locator(`[data-status-column="Ready"] [data-record="${item}"]`).waitFor();
  await until('the agent line in the clean editor', async () => (await body.inputValue()).endsWith('- agent line 1'));
  assert((await page.getByLabel('Record status').inputValue()) === 'Ready', 'the editor shows the agent\'s status');
  assert((await page.locator('[data-sync-error]').count()) === 0, 'a clean editor reloads silently');

  // 5. Unsaved typing is kept when the agent writes; the banner says so;
  //    re-apply saves both.
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n- person line 2');
  await agentEdits((cur) => ({ body: cur.fields.body + '\n- agent line 2' }));
  const remote = page.locator('[data-sync-error="remote"]');
  await remote.waitFor();
  assert((await remote.textContent()).includes('changed while you were editing'), 'the remote-change banner text');
  assert((await body.inputValue()).endsWith('- person line 2'), 'the typing is not clobbered');
  await page.getByRole('button', { name: 'Compare' }).click();
  const currentSide = await page.locator('[data-compare] [data-side="current"]').allTextContents();
  assert(currentSide.some((t) => t.includes('agent line 2')), 'compare shows the agent\'s version');
  await shot('records-conflict');
  await page.getByRole('button', { name: 'Re-apply my change' }).click();
  await until('the re-applied save', async () => (await status.textContent()) === 'Saved');
  const final = (await stored()).fields.body.split('\n');
  for (const l of ['- person line 1', '- agent line 1', '- person line 2', '- agent line 2']) assert(final.includes(l), `stored body keeps "${l}": ${final}`);

  // 6. A status outside the channel's list is refused with the list.
  const bad = await tool('edit_record_item', { record_channel_id: channel, item_id: item, expected_version: (await stored()).version,
    idempotency_key: `e2e-records-${++keys}`, values: { status: 'Shipped' } });
  assert(bad.refused && bad.text.includes('status "Shipped" is not one of this channel\'s statuses (Draft, Review, Ready)'), `the agent's bad status is refused: ${bad.text}`);
  let cliErr = '';
  await run(bin, ['records', 'add', channel, '--title', 'Blog', '--status', 'Shipped'], { env }).catch((e) => (cliErr = e.stderr));
  assert(cliErr.includes('is not one of this channel\'s statuses (Draft, Review, Ready)'), `the owner command refuses it too: ${cliErr}`);

  // 7. The table view lists the item with its status.
  await page.getByRole('button', { name: 'Table' }).click();
  const row = page.locator(`tr[data-record="${item}"]`);
  await row.waitFor();
  assert((await row.getByLabel('Status of Pricing page').inputValue()) === 'Ready', 'the table shows the status');
}
