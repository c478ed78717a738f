import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall } from '../lib.mjs';

// The Sessions board as a user works it every day, on real panes running
// prompt.sh (a stand-in for Claude Code's TUI). Checks:
// - two Claude Code panes never share a bare "Claude Code" title (folder);
// - the elapsed time on a card ticks while the board stays open;
// - hovering a card shows its Done… button without covering the card's text;
// - a refused move says "idle or paused", as the subtitle does;
// - the sidebar badge counts the sessions that need you, on another screen;
// - a terminal card dragged to Done stays in Done (also after a reload),
//   the banner and the card open the summary in the app's viewer, and
//   Clear takes the card off;
// - at 900×600 the six columns stay readable: empty ones fold, the others
//   keep their width (the board scrolls sideways), titles wrap at words.
const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, '../../../backend/testkit/fakeprompt/prompt.sh');

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export default async function ({ page, base, tmp, env, shot }) {
  const api = join(tmp, 'board', 'billing-api');
  const web = join(tmp, 'board', 'shop-web-storefront-with-a-long-folder-name');
  mkdirSync(api, { recursive: true });
  mkdirSync(web, { recursive: true });
  await page.goto(base + '/#/sessions');
  await page.waitForSelector('[data-column="done"]');
  const a = await goCall(page, 'terminal.Service.Create', { dir: api, command: `env OSF_WORK=0 bash ${script}`, cols: 100, rows: 30 });
  const w = await goCall(page, 'terminal.Service.Create', { dir: web, command: `env OSF_WORK=0 bash ${script}`, cols: 100, rows: 30 });
  const cleanup = async () => {
    for (const id of [a.id, w.id]) await goCall(page, 'terminal.Service.Close', id).catch(() => {});
  };
  try {
    const card = (id) => `[data-card="terminal/${id}"]`;
    const inColumn = (col, id) => `[data-column="${col}"] ${card(id)}`;
    await page.waitForSelector(inColumn('idle', a.id));
    await page.waitForSelector(inColumn('idle', w.id));

    // Titles: the folder tells the two Claude Code panes apart (once the
    // screen has shown the agent: until then a pane is named by its command).
    const title = async (id) => (await page.locator(`${card(id)} .title`).textContent()).trim();
    await until('the billing-api pane named as Claude Code', async () => (await title(a.id)).startsWith('Claude Code'), 15000).catch(() => {});
    await until('the storefront pane named as Claude Code', async () => (await title(w.id)).startsWith('Claude Code'), 15000).catch(() => {});
    const titleA = await title(a.id);
    const titleW = await title(w.id);
    assert(titleA !== titleW, `two cards share the title ${JSON.stringify(titleA)}`);
    assert(titleA === 'Claude Code in billing-api', `title of the billing-api pane: ${titleA}`);

    // The elapsed time ticks.
    const ago = page.locator(`${card(a.id)} .ago`);
    const before = (await ago.textContent()).trim();
    await until('the elapsed time to tick', async () => (await ago.textContent()).trim() !== before, 4000);

    // Hover: the Done… button is shown and covers none of the card's text.
    await page.hover(card(a.id));
    const done = page.locator(card(a.id)).getByRole('button', { name: /^Move to Done/ });
    await done.waitFor({ state: 'visible' });
    const btn = await done.boundingBox();
    for (const part of ['.title', '.meta', '.why']) {
      const box = await page.locator(`${card(a.id)} ${part}`).boundingBox();
      assert(box && !overlap(btn, box), `Done… covers the card's ${part}: ${JSON.stringify(btn)} over ${JSON.stringify(box)}`);
    }

    // A refused move and the subtitle say the same thing.
    const subtitle = await page.locator('.subtitle').textContent();
    assert(subtitle.includes('idle or paused'), `subtitle: ${subtitle}`);
    await page.dragAndDrop(card(a.id), '[data-column="running"]');
    const refusal = page.locator('.banner.refusal:not(.rules)');
    await refusal.waitFor();
    assert((await refusal.textContent()).includes('Only an idle or paused session can be moved, and only to Done.'), `refusal: ${await refusal.textContent()}`);
    await refusal.getByRole('button', { name: 'Dismiss' }).click();

    // The sidebar badge counts what needs you, on every screen.
    const badge = page.locator('[data-route="/sessions"] .badge');
    assert((await badge.count()) === 0, 'a badge while nothing needs you');
    await goCall(page, 'terminal.Service.Input', a.id, 't');
    await page.waitForSelector(inColumn('needs_you', a.id), { timeout: 5000 });
    await page.goto(base + '/#/settings');
    await until('the badge on another screen', async () => (await badge.textContent().catch(() => ''))?.trim() === '1');
    assert((await page.locator('[data-route="/sessions"]').getAttribute('aria-label')) === 'Sessions, 1 needs you', 'the badge is announced');
    await shot('sessions-badge');
    await goCall(page, 'terminal.Service.Input', a.id, '1');
    await until('the badge to go once answered', async () => (await badge.count()) === 0, 5000);

    // Drag to Done: it stays there, its summary opens in the app.
    await page.goto(base + '/#/sessions');
    await page.waitForSelector(inColumn('idle', a.id));
    await page.dragAndDrop(card(a.id), '[data-column="done"]');
    const dialog = page.getByRole('dialog', { name: 'End this session?' });
    await dialog.getByRole('button', { name: 'End session' }).click();
    const notice = page.locator('.banner.notice');
    await notice.waitFor();
    const path = (await notice.textContent()).match(/Summary saved to (\S+\.md)/)?.[1];
    assert(path && path.startsWith(join(env.OSFOUNDRY_HOME, 'knowledge', 'sessions')), `notice: ${await notice.textContent()}`);
    await page.waitForSelector(inColumn('done', a.id));
    await notice.getByRole('button', { name: 'Open summary' }).click();
    const viewer = page.getByRole('dialog', { name: 'Session summary' });
    await viewer.waitFor();
    await viewer.getByRole('heading', { level: 1, name: 'Claude Code in billing-api' }).waitFor();
    const shown = await viewer.textContent();
    for (const want of ['Kind: Terminal', `Where: ${api}`, 'What it did', 'Last screen', 'Removed build/.']) {
      assert(shown.includes(want), `the viewer lacks ${JSON.stringify(want)}: ${shown}`);
    }
    assert(!shown.includes('## '), 'the viewer shows Markdown source, not the rendered summary');
    assert((await viewer.locator('li').count()) >= 4, 'the summary fields render as a list');
    assert(shown.includes(path), 'the viewer says where the file is');
    await shot('sessions-summary-viewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
    await page.reload();
    await page.waitForSelector(inColumn('done', a.id));
    assert(readFileSync(path, 'utf8').startsWith('# Claude Code in billing-api'), 'the summary file');
    await page.locator(card(a.id)).getByRole('button', { name: /^Open the summary/ }).click();
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await page.locator(card(a.id)).getByRole('button', { name: /^Clear / }).click();
    await until('the cleared card to leave the board', async () => (await page.$(card(a.id))) === null);

    // 900×600: readable columns.
    await page.setViewportSize({ width: 900, height: 600 });
    await until('the narrow layout', async () => (await page.locator('[data-column="idle"]').boundingBox())?.width >= 180);
    const cols = await page.$$eval('[data-column]', (els) =>
      els.map((el) => ({ id: el.dataset.column, w: el.getBoundingClientRect().width, cards: el.querySelectorAll('[data-card]').length, label: el.querySelector('h2')?.textContent ?? '' })),
    );
    for (const c of cols) {
      if (c.cards > 0) assert(c.w >= 180, `column ${c.id} is ${c.w}px wide with cards in it`);
      assert(/\S/.test(c.label), `column ${c.id} lost its label`);
    }
    const folded = cols.filter((c) => c.cards === 0);
    assert(folded.every((c) => c.w <= 64), `empty columns should fold: ${JSON.stringify(folded)}`);
    // No word of a title is split across lines.
    const split = await page.$$eval('[data-card] .title', (els) => {
      const out = [];
      for (const el of els) {
        const node = el.firstChild;
        if (!node || node.nodeType !== 3) continue;
        const text = node.textContent;
        const re = /[^\s-]+/g; // a break after a hyphen is a break between words
        let m;
        while ((m = re.exec(text))) {
          const r = document.createRange();
          r.setStart(node, m.index);
          r.setEnd(node, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      }
      return out;
    });
    assert(split.length === 0, `title words broken across lines: ${split.join(', ')}`);
    await shot('sessions-900x600');
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await cleanup();
  }
}
