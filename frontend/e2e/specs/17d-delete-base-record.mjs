import { until, assert, goCall } from '../lib.mjs';

// Deleting a knowledge base and a Record from the window. Each Delete asks
// first with the app's confirm (Cancel has the focus and keeps everything);
// the knowledge base's confirm says how many articles go with it. After the
// answer the base or the item is gone from the store (asked through the
// bound methods) and from the screen, and the rest stays. A Record deleted
// elsewhere while the confirm is open is said in words, not an error code.
const K = 'notes.KnowledgeBinding.';
const R = 'notes.RecordsBinding.';

export default async function ({ page, base, shot }) {
  await page.goto(base + '/#/knowledge');
  await page.locator('[data-route="/knowledge"]').waitFor();
  const ov = await goCall(page, K + 'Overview');
  assert(ov.workspaces.length > 0, 'the app has a workspace to put the knowledge bases in');
  const ws = ov.workspaces[0].id;

  // 1. A knowledge base with three articles, beside one that must stay.
  const gone = await goCall(page, K + 'CreateKnowledgeBase', ws, '', 'E2E base to delete');
  const kept = await goCall(page, K + 'CreateKnowledgeBase', ws, '', 'E2E base that stays');
  for (const t of ['Refunds', 'Shipping', 'Returns']) await goCall(page, K + 'CreateArticle', gone.knowledge_base_id, t, `# ${t}\n`);
  const keptArticle = await goCall(page, K + 'CreateArticle', kept.knowledge_base_id, 'Hours', '# Hours\n');
  // The screen reads its list when it opens: open it anew.
  await page.goto(base + `/#/knowledge?kb=${gone.knowledge_base_id}`);
  await page.reload();
  await until('the base open', async () => (await page.locator('[data-kb-name]').textContent()) === 'E2E base to delete');
  await page.locator(`[data-kb="${kept.knowledge_base_id}"]`).waitFor();

  // Cancel keeps it.
  const del = page.locator(`[data-delete-kb="${gone.knowledge_base_id}"]`);
  const dialog = page.locator(`[data-delete-kb-dialog="${gone.knowledge_base_id}"]`);
  await del.click();
  await dialog.waitFor();
  const text = await page.locator('#delete-kb-text').textContent();
  assert(text.includes('“E2E base to delete”') && text.includes('Its 3 articles go with it.'), `the confirm names the base and its articles: ${text}`);
  assert(!text.includes('teammates'), `a Local-only base says nothing of teammates: ${text}`);
  assert(await page.evaluate(() => document.activeElement?.textContent === 'Cancel'), 'Cancel has the focus');
  await shot('17d-delete-kb-confirm');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert((await goCall(page, K + 'Articles', gone.knowledge_base_id)).length === 3, 'Cancel deleted nothing');

  // Delete for real.
  await del.click();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Delete knowledge base', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(`[data-kb="${gone.knowledge_base_id}"]`).waitFor({ state: 'detached' });
  await until('the route leaves the deleted base', async () => !page.url().includes(gone.knowledge_base_id));
  const after = await goCall(page, K + 'Overview');
  const ids = after.knowledge_bases.map((b) => b.knowledge_base_id);
  assert(!ids.includes(gone.knowledge_base_id), 'the store no longer has the deleted base');
  assert(ids.includes(kept.knowledge_base_id), 'the other base stays');
  const stillThere = await goCall(page, K + 'GetArticle', kept.knowledge_base_id, keptArticle.article_id);
  assert(stillThere.title === 'Hours', 'the other base keeps its article');
  assert((await goCall(page, K + 'Articles', gone.knowledge_base_id).catch(() => [])).length === 0, 'the deleted base\'s articles went with it');
  assert((await page.locator('[data-knowledge-error]').count()) === 0, 'no error after the delete');
  await page.locator(`[data-kb="${kept.knowledge_base_id}"]`).waitFor();

  // 2. A Record channel with two items; delete one from its open view.
  const ch = await goCall(page, R + 'CreateChannel', ws, '', 'E2E delete records', ['Draft', 'Done']);
  const chId = ch.record_channel_id;
  const a = await goCall(page, R + 'AddItem', chId, 'Pricing page', 'Draft', 'pricing body');
  const b = await goCall(page, R + 'AddItem', chId, 'About page', 'Draft', 'about body');
  const c = await goCall(page, R + 'AddItem', chId, 'Contact page', 'Done', 'contact body');
  await page.goto(base + `/#/records?channel=${chId}&item=${a.item_id}`);
  await page.reload();
  await page.locator(`[data-record-view="${a.item_id}"]`).waitFor();
  await page.locator(`[data-delete-record="${a.item_id}"]`).click();
  const rdialog = page.locator(`[data-delete-record-dialog="${a.item_id}"]`);
  await rdialog.waitFor();
  const rtext = await page.locator('#delete-record-text').textContent();
  assert(rtext === '“Pricing page” and its body are removed from E2E delete records.', `the confirm names the record and its channel: ${rtext}`);
  await shot('17d-delete-record-confirm');
  await rdialog.getByRole('button', { name: 'Delete record', exact: true }).click();
  await rdialog.waitFor({ state: 'detached' });
  await page.locator(`[data-record="${a.item_id}"]`).waitFor({ state: 'detached' });
  await page.locator(`[data-record-view="${a.item_id}"]`).waitFor({ state: 'detached' });
  await until('the route leaves the deleted record', async () => !page.url().includes(a.item_id));
  const left = (await goCall(page, R + 'Items', chId)).map((x) => x.item_id).sort();
  assert(JSON.stringify(left) === JSON.stringify([b.item_id, c.item_id].sort()), `the store keeps the other records only: ${left}`);
  assert((await goCall(page, R + 'Item', chId, a.item_id).then(() => 'found', (e) => String(e))).includes('not found'), 'the deleted record cannot be read');
  await page.locator(`[data-record="${b.item_id}"]`).waitFor();
  assert((await page.locator('[data-records-error]').count()) === 0, 'no error after the delete');

  // 3. Deleted elsewhere while the confirm is open: said in words, and the board follows.
  await page.goto(base + `/#/records?channel=${chId}&item=${b.item_id}`);
  await page.locator(`[data-record-view="${b.item_id}"]`).waitFor();
  await page.locator(`[data-delete-record="${b.item_id}"]`).click();
  const bdialog = page.locator(`[data-delete-record-dialog="${b.item_id}"]`);
  await bdialog.waitFor();
  await goCall(page, R + 'DeleteItem', chId, b.item_id);
  await bdialog.getByRole('button', { name: 'Delete record', exact: true }).click();
  const err = page.locator('[data-records-error]');
  await err.waitFor();
  const etext = await err.textContent();
  assert(etext.includes('already deleted elsewhere') && etext.includes('The screen now shows what is left.'), `the error says what happened and what the list shows: ${etext}`);
  await page.locator(`[data-record="${b.item_id}"]`).waitFor({ state: 'detached' });
  await page.locator(`[data-record="${c.item_id}"]`).waitFor();
  await shot('17d-delete-record-gone-elsewhere');
}
