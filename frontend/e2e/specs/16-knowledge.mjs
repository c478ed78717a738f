import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert } from '../lib.mjs';

// Knowledge bases end to end: the person creates a knowledge base and an
// article, edits, renames, searches (the FTS search_knowledge_base runs) and
// deletes it, while another process (`osfoundry knowledge add --article`, a
// second handle on the same store) writes the same article. A clean editor
// follows live; unsaved typing gets the conflict banner, compare and
// re-apply with no lost line. Scripts in an article's Markdown stay inert.
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');

export default async function ({ page, base, env, tmp, shot }) {
  const cli = async (...args) => (await run(bin, ['knowledge', ...args], { env })).stdout;
  let n = 0;
  const otherWrites = async (kb, article, title, body) => {
    const f = join(tmp, `article-${++n}.md`);
    writeFileSync(f, body);
    return (await cli('add', kb, '--article', article, '--title', title, '--file', f)).trim();
  };
  const stored = async (kb, article) => JSON.parse(await cli('show', kb, article));

  await page.goto(base + '/#/knowledge');
  await page.locator('[data-route="/knowledge"]').waitFor();
  await page.getByRole('button', { name: '+ New', exact: true }).click();
  await page.getByLabel('Name').fill('Support answers');
  await page.getByRole('button', { name: 'Create knowledge base' }).click();
  const kbName = page.locator('[data-kb-name]');
  await until('the new knowledge base', async () => (await kbName.textContent()) === 'Support answers');
  const kb = await until('the kb in the route', async () => new URL(page.url().replace('#/', '')).searchParams.get('kb'));
  assert((await cli('list')).includes('Support answers'), 'the command line lists the new knowledge base');

  // 1. Add an article whose Markdown carries a script: it renders inert.
  await page.getByRole('button', { name: '+ New article' }).click();
  await page.getByLabel('Title').fill('Refunds');
  await page.getByLabel('Text (Markdown)').fill('# Refunds\n- paid within 14 days\n\n<script>window.__pwned = 1</script>\n<img src="x" onerror="window.__pwned = 2">');
  await page.getByRole('button', { name: 'Add article' }).click();
  const view = page.locator('[data-article-view]');
  await view.waitFor();
  const art = await view.getAttribute('data-article-view');
  assert((await page.locator('[data-article-by]').textContent()).includes('by you'), 'the author is the person');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.locator('[data-preview] h1', { hasText: 'Refunds' }).waitFor();
  assert((await page.locator('[data-preview] script, [data-preview] [onerror]').count()) === 0, 'no script or handler reaches the page');
  assert((await page.evaluate(() => window.__pwned)) === undefined, 'the article\'s script did not run');
  await page.getByRole('button', { name: 'Edit', exact: true }).click();

  // 2. Edit and save.
  const editor = page.getByLabel('Article text');
  const status = page.locator('[data-save-status]');
  const version = () => page.locator('[data-article-version]').textContent();
  await editor.fill('# Refunds\n- paid within 30 days');
  await until('the unsaved status', async () => (await status.textContent()).startsWith('Unsaved changes'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await until('the save', async () => (await status.textContent()) === 'Saved' && (await version()) === 'version 2');
  assert((await stored(kb, art)).body === '# Refunds\n- paid within 30 days', 'the store holds what the person saved');

  // 3. Rename.
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await page.getByLabel('Article title').fill('Refund policy');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await until('the new title', async () => (await page.locator('[data-article-title]').textContent()) === 'Refund policy');
  await page.locator(`[data-article="${art}"]`, { hasText: 'Refund policy' }).waitFor();
  assert((await stored(kb, art)).title === 'Refund policy', 'the store holds the new title');

  // 4. Search with the tools' full-text search.
  const search = page.getByLabel('Search articles');
  await search.fill('refund days');
  await page.locator(`[data-hit="${art}"]`).waitFor();
  await search.fill('warranty');
  await page.getByText('No article matches.').waitFor();
  await search.fill('');
  await page.locator(`[data-article="${art}"]`).waitFor();

  // 5. A clean editor follows another process's write live.
  await otherWrites(kb, art, 'Refund policy', '# Refunds\n- paid within 30 days\n- other line 1');
  await until('the other write in the clean editor', async () => (await editor.inputValue()).endsWith('- other line 1'));
  await until('the author', async () => (await page.locator('[data-article-by]').textContent()).includes('by command line'));
  assert((await page.locator('[data-sync-error]').count()) === 0, 'a clean editor reloads silently');

  // 6. Unsaved typing is kept when the other process writes; compare and re-apply.
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n- person line 2');
  await otherWrites(kb, art, 'Refund policy', '# Refunds\n- paid within 30 days\n- other line 1\n- other line 2');
  const remote = page.locator('[data-sync-error="remote"]');
  await remote.waitFor();
  assert((await remote.textContent()).includes('This article changed while you were editing'), 'the remote-change banner text');
  assert((await editor.inputValue()).endsWith('- person line 2'), 'the typing is not clobbered');
  await page.getByRole('button', { name: 'Compare' }).click();
  const mine = await page.locator('[data-compare] [data-side="mine"]').allTextContents();
  const cur = await page.locator('[data-compare] [data-side="current"]').allTextContents();
  assert(mine.some((t) => t.includes('person line 2')) && cur.some((t) => t.includes('other line 2')), 'compare shows both sides');
  await shot('knowledge-conflict');
  await page.getByRole('button', { name: 'Re-apply my change' }).click();
  await until('the re-applied save', async () => (await status.textContent()) === 'Saved');
  const body = (await stored(kb, art)).body;
  for (const l of ['paid within 30 days', 'other line 1', 'other line 2', 'person line 2']) assert(body.includes(l), `stored text keeps "${l}" in ${JSON.stringify(body)}`);

  // 7. A new article from another process appears in the list live.
  const f = join(tmp, 'shipping.md');
  writeFileSync(f, 'Ships in 2 days.');
  const ship = (await cli('add', kb, '--title', 'Shipping', '--file', f)).trim();
  await page.locator(`[data-article="${ship}"]`).waitFor();
  await shot('knowledge');

  // 8. Delete.
  await page.locator(`[data-delete-article="${art}"]`).click();
  const confirm = page.locator(`[data-delete-article-dialog="${art}"]`);
  await confirm.waitFor();
  const says = await page.locator('#delete-article-text').textContent();
  assert(says === '“Refund policy” is deleted from Support answers and connected agents no longer find it.', `the confirm names the article and its base: ${says}`);
  await confirm.getByRole('button', { name: 'Delete article' }).click();
  await until('the deleted article gone', async () => (await page.locator(`[data-article="${art}"]`).count()) === 0);
  assert((await page.locator('[data-article-view]').count()) === 0, 'the editor closes');
  assert(!(await cli('list', kb)).includes(art), 'the store no longer has the article');
}
