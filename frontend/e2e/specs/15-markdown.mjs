import http from 'node:http';
import { until, assert, goCall } from '../lib.mjs';

// Markdown as Claude and Codex write it, in a Note's preview (the one
// Markdown component Chat answers and summaries use too). Checks: GFM
// table, nested and task lists, highlighted code; raw HTML and a
// javascript: link stay inert; a remote image is not fetched until the
// person clicks it (a local server counts the requests); a link does not
// navigate the app window.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export default async function ({ page, base, shot }) {
  let hits = 0;
  const img = http.createServer((req, res) => {
    hits++;
    res.setHeader('Content-Type', 'image/png');
    res.end(PNG);
  });
  await new Promise((ok) => img.listen(0, '127.0.0.1', ok));
  const pixel = `http://127.0.0.1:${img.address().port}/pixel.png`;
  try {
    await page.goto(base + '/#/notes');
    const ws = (await goCall(page, 'notes.Binding.Overview')).workspaces[0]?.id;
    assert(ws, 'a workspace exists (seeded)');
    const note = await goCall(page, 'notes.Binding.CreateNote', ws, '', 'Markdown check');
    const md = [
      '# Release check',
      '',
      '| file | lines |',
      '| --- | ---: |',
      '| `main.go` | 42 |',
      '| app.go | 7 |',
      '',
      '1. Build',
      '   - linux',
      '   - macOS',
      '2. Ship',
      '',
      '- [x] tests pass',
      '- [ ] notes written',
      '',
      '```go',
      'func main() {}',
      '```',
      '',
      '<script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2">',
      '',
      '[bad](javascript:window.__pwned=3) [docs](https://example.com/docs)',
      '',
      `![build graph](${pixel})`,
    ].join('\n');
    const saved = await goCall(page, 'notes.Binding.SaveText', note.note_id, note.tabs[0].tab_id, note.version, md);
    assert(saved.saved, 'the text is saved');

    await page.locator(`[data-note="${note.note_id}"]`).click();
    await page.getByRole('button', { name: 'Preview' }).click();
    const pv = page.locator('[data-preview]');
    await pv.locator('h1', { hasText: 'Release check' }).waitFor();
    assert(JSON.stringify(await pv.locator('th').allTextContents()) === '["file","lines"]', 'the table header');
    assert((await pv.locator('tbody tr').count()) === 2, 'two table rows');
    assert(JSON.stringify(await pv.locator('ol > li > ul > li').allTextContents()) === '["linux","macOS"]', 'the nested list');
    const boxes = pv.locator('li input[type=checkbox]');
    assert((await boxes.count()) === 2 && (await boxes.first().isChecked()) && (await boxes.first().isDisabled()), 'read-only task boxes');
    assert((await pv.locator('pre code .hljs-keyword').first().textContent()) === 'func', 'highlighted Go');
    assert(((await pv.textContent()) ?? '').includes('<script>window.__pwned = 1</script>'), 'raw HTML shows as text');
    assert((await pv.locator('a').count()) === 1, 'only the https link is a link');
    await page.waitForTimeout(500);
    assert((await page.evaluate(() => window.__pwned)) === undefined, 'nothing in the Note ran');

    const button = pv.locator('[data-remote-image]');
    await button.waitFor();
    assert(((await button.textContent()) ?? '').includes('127.0.0.1'), 'the image button names the host');
    await page.waitForTimeout(500);
    assert(hits === 0, `the remote image was fetched ${hits} time(s) before a click`);
    await shot('markdown-preview');
    await button.click();
    await until('the image loaded', () => pv.locator('img.md-img').evaluate((i) => i.complete && i.naturalWidth === 1).catch(() => false));
    assert(hits === 1, `one fetch after the click, got ${hits}`);

    const before = page.url();
    await pv.locator('a', { hasText: 'docs' }).click();
    await page.waitForTimeout(300);
    assert(page.url() === before, `a link leaves the app window where it is: ${page.url()}`);
  } finally {
    img.close();
  }
}
