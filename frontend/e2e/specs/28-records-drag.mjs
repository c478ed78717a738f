import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert, goCall } from '../lib.mjs';

// The Records board moves items the way a board does. Checks:
// 1. with a record open beside a board of five statuses, every column stays
//    in sight (none pushed out past the edge, no sideways scrolling);
// 2. dragging a card onto another column moves the item there and stores
//    the move;
// 3. the move is the versioned write: an agent's edit that lands while the
//    card is being dragged is kept (its body line survives the move, the
//    version counts both);
// 4. the keyboard does the same: Alt+→ / Alt+← on a card step it to the
//    next or previous status, and the focus stays on the card.
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');
const statuses = ['Idea', 'Draft', 'Review', 'Ready', 'Published'];

export default async function ({ page, base, env, shot }) {
  await page.goto(base + '/#/records');
  await page.locator('[data-route="/records"]').waitFor();
  await page.getByRole('button', { name: '+ New channel' }).click();
  await page.getByLabel('Name').fill('E2E release pages');
  await page.getByLabel('Statuses, in board order, separated by commas').fill(statuses.join(', '));
  await page.getByRole('button', { name: 'Create channel' }).click();
  const board = page.locator('[data-record-board]');
  await board.waitFor();
  const channel = await board.getAttribute('data-record-board');
  const workspace = (await goCall(page, 'notes.RecordsBinding.Channel', channel)).workspace_id;
  const stored = (id) => goCall(page, 'notes.RecordsBinding.Item', channel, id);
  const card = (id) => page.locator(`[data-record="${id}"]`);
  const inColumn = (status, id) => page.locator(`[data-status-column="${status}"] [data-record="${id}"]`);

  const add = async (title) => {
    await page.getByLabel('New record title').fill(title);
    await page.getByRole('button', { name: 'Add record' }).click();
    await until(`"${title}" to open`, async () => (await page.locator('[data-record-title]').textContent().catch(() => '')) === title);
    return page.locator('[data-record-view]').getAttribute('data-record-view');
  };
  const launch = await add('Launch post');
  const changelog = await add('Changelog');

  // 1. A record is open: every column is still on screen.
  const cut = await page.evaluate(() => {
    const box = document.querySelector('.columns').getBoundingClientRect();
    const out = [...document.querySelectorAll('[data-status-column]')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left < box.left - 1 || r.right > box.right + 1 || r.width < 100;
      })
      .map((c) => c.getAttribute('data-status-column'));
    const el = document.querySelector('.columns');
    return { out, over: el.scrollWidth - el.clientWidth };
  });
  assert(cut.out.length === 0 && cut.over <= 0, `with a record open these columns are out of sight: ${cut.out} (${cut.over}px sideways)`);
  await shot('records-drag-open');

  // 2. Drag a card to another column.
  await page.dragAndDrop(`[data-record="${launch}"] .open`, '[data-status-column="Review"]');
  await inColumn('Review', launch).waitFor();
  await until('the stored move', async () => (await stored(launch)).status === 'Review');

  // 3. An agent edits the item while the person drags it: both are kept.
  const before = await stored(launch);
  await card(launch).locator('.open').hover();
  await page.mouse.down();
  const ready = await page.locator('[data-status-column="Ready"]').boundingBox();
  await page.mouse.move(ready.x + 20, ready.y + 30, { steps: 4 });
  const r = JSON.parse(
    (
      await run(bin, ['notes', 'tool', '-workspace', workspace, 'edit_record_item', JSON.stringify({
        record_channel_id: channel, item_id: launch, expected_version: before.version, idempotency_key: 'e2e-records-drag-1',
        values: { body: '- agent line while dragging' },
      })], { env })
    ).stdout,
  );
  assert(r.status === 'saved', `the agent's edit: ${JSON.stringify(r)}`);
  await until('the board to show the agent\'s version', async () => (await card(launch).locator('.v').textContent()) === `v${before.version + 1}`);
  await page.mouse.move(ready.x + 30, ready.y + 40, { steps: 2 });
  await page.mouse.up();
  await inColumn('Ready', launch).waitFor();
  await until('the stored second move', async () => (await stored(launch)).status === 'Ready');
  const after = await stored(launch);
  assert(after.fields.body === '- agent line while dragging', `the move kept the agent's body: ${JSON.stringify(after.fields.body)}`);
  assert(after.version === before.version + 2, `the agent's edit and the move are both counted: version ${after.version}`);

  // 4. The keyboard: Alt+→ twice, Alt+← once.
  const open = card(changelog).locator('.open');
  assert((await open.getAttribute('aria-keyshortcuts')) === 'Alt+ArrowLeft Alt+ArrowRight', 'the card names its keys');
  await open.focus();
  await page.keyboard.press('Alt+ArrowRight');
  await inColumn('Draft', changelog).waitFor();
  await until('the focus to follow the card', () => page.evaluate((id) => !!document.activeElement?.closest(`[data-record="${id}"]`), changelog));
  await page.keyboard.press('Alt+ArrowRight');
  await inColumn('Review', changelog).waitFor();
  await until('the focus to follow the card again', () => page.evaluate((id) => !!document.activeElement?.closest(`[data-record="${id}"]`), changelog));
  await page.keyboard.press('Alt+ArrowLeft');
  await inColumn('Draft', changelog).waitFor();
  await until('the stored keyboard move', async () => (await stored(changelog)).status === 'Draft');
  await page.mouse.move(0, 0);
  await shot('records-drag-moved');
}
