import { mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall } from '../lib.mjs';

// A Done summary is a knowledge article: a terminal card dragged to Done
// and confirmed says where its summary is, and "Open in Knowledge bases"
// opens it on the Knowledge bases screen, in the workspace's "Session
// summaries" knowledge base (created with this first summary), written by
// the Sessions board, with the summary's own text.
const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, '../../../backend/testkit/fakeprompt/prompt.sh');

export default async function ({ page, base, tmp, shot }) {
  const dir = join(tmp, 'board', 'invoice-api');
  mkdirSync(dir, { recursive: true });
  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="done"]');
  const a = await goCall(page, 'terminal.Service.Create', { dir, command: `env OSF_WORK=0 bash ${script}`, cols: 100, rows: 30 });
  try {
    const card = `[data-card="terminal/${a.id}"]`;
    await page.waitForSelector(`[data-column="idle"] ${card}`);
    const title = async () => (await page.locator(`${card} .title`).textContent()).trim();
    await until('the pane named as Claude Code', async () => (await title()).startsWith('Claude Code'), 15000).catch(() => {});
    const name = await title();
    await page.dragAndDrop(card, '[data-column="done"]');
    const dialog = page.getByRole('dialog', { name: 'End this session?' });
    assert((await dialog.textContent()).includes('Knowledge bases → Session summaries'), `the dialog says where the summary goes: ${await dialog.textContent()}`);
    await dialog.getByRole('button', { name: 'End session' }).click();
    const notice = page.locator('.banner.notice');
    await notice.waitFor();
    await page.waitForSelector(`[data-column="done"] ${card}`);
    const why = (await page.locator(`${card} .why`).textContent()).trim();
    assert(why === 'Ended by you — its summary is in Session summaries', `the Done card says: ${why}`);
    const link = notice.locator('[data-summary-kb]');
    await link.waitFor({ timeout: 10000 });
    await shot('summaries-notice-link');
    await link.click();

    await page.locator('[data-route="/knowledge"]').waitFor();
    await until('the Session summaries base', async () => ((await page.locator('[data-kb-name]').textContent().catch(() => '')) ?? '') === 'Session summaries');
    const view = page.locator('[data-article-view]');
    await view.waitFor();
    assert((await page.locator('[data-article-by]').textContent()).includes('Sessions board'), `written by: ${await page.locator('[data-article-by]').textContent()}`);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.locator('[data-preview]');
    await preview.locator('h1').waitFor();
    const text = await preview.textContent();
    for (const want of [name, 'Kind: Terminal', `Where: ${dir}`]) {
      assert(text.includes(want), `the article lacks ${JSON.stringify(want)}: ${text.slice(0, 400)}`);
    }
    const bases = await page.locator('[data-kb]').allTextContents();
    assert(bases.filter((b) => b.includes('Session summaries')).length === 1, `one Session summaries base: ${JSON.stringify(bases)}`);
    await shot('summaries-in-knowledge');
  } finally {
    await goCall(page, 'terminal.Service.Close', a.id).catch(() => {});
  }
}
