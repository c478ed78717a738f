import { describe, expect, it } from 'vitest';
import { highlightLine, languageOf, lineSide, segmentHtml, segmentsOf, splitRows, totals, unifiedRows } from './review';

const patch = `diff --git a/app.js b/app.js
index 1111111..2222222 100644
--- a/app.js
+++ b/app.js
@@ -1,5 +1,6 @@
 one
 two
-three
-four
+THREE
 five
+six
+seven
`;

describe('review diff rows', () => {
  it('numbers each line on its side', () => {
    const rows = unifiedRows(patch);
    expect(rows[0]).toEqual({ kind: 'hunk', text: '@@ -1,5 +1,6 @@' });
    expect(rows.slice(1).map((r) => (r.kind === 'hunk' ? r.text : `${r.kind} ${r.old} ${r.new} ${r.text}`))).toEqual([
      'ctx 1 1 one', 'ctx 2 2 two', 'del 3 0 three', 'del 4 0 four', 'add 0 3 THREE', 'ctx 5 4 five', 'add 0 5 six', 'add 0 6 seven',
    ]);
  });

  it('pairs removed lines with the added lines after them', () => {
    const rows = splitRows(unifiedRows(patch)).slice(1);
    const show = rows.map((r) => `${r.left ? r.left.kind + ':' + r.left.text : '-'} | ${r.right ? r.right.kind + ':' + r.right.text : '-'}`);
    expect(show).toEqual(['ctx:one | ctx:one', 'ctx:two | ctx:two', 'del:three | add:THREE', 'del:four | -', 'ctx:five | ctx:five', '- | add:six', '- | add:seven']);
  });

  it('reads a new file git wrote without index line', () => {
    const rows = unifiedRows('diff --git a/n.md b/n.md\nnew file mode 100644\n--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(rows.filter((r) => r.kind === 'add').length).toBe(2);
  });

  it('puts a comment on the branch line, or the base line of a removed one', () => {
    expect(lineSide({ kind: 'add', old: 0, new: 7, text: '' })).toEqual({ side: 'new', line: 7 });
    expect(lineSide({ kind: 'del', old: 4, new: 0, text: '' })).toEqual({ side: 'old', line: 4 });
  });

  it('highlights by extension and escapes everything else', () => {
    expect(languageOf('src/app.ts')).toBe('typescript');
    expect(languageOf('Makefile')).toBe('');
    expect(highlightLine('const a = "<b>";', 'javascript')).toContain('<span class="hljs-keyword">const</span>');
    expect(highlightLine('const a = "<b>";', 'javascript')).toContain('&lt;b&gt;');
    expect(highlightLine('<img onerror=x>', '')).toBe('&lt;img onerror=x&gt;');
  });

  it('sums the counts', () => {
    expect(totals([{ added: 3, removed: 1 }, { added: 1, removed: 0 }])).toBe('+4 −1 in 2 files');
  });
});

describe('review diff segments', () => {
  const rows = unifiedRows(patch);
  it('cuts after a commented line so its comments follow it, and at the size bound', () => {
    const segs = segmentsOf(rows, 'app.js', new Set(['old:3:app.js']), 4);
    expect(segs.map((s) => [s.key, s.after.map((l) => `${l.kind}${l.old}`)])).toEqual([
      ['0-3', ['del3']], ['4-7', []], ['8-8', []],
    ]);
  });
  it('draws rows with escaped text and line buttons carrying the comment side', () => {
    const [seg] = segmentsOf(unifiedRows('--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-<b>\n+const x = 1;\n'), 'x.js', new Set());
    const html = segmentHtml(seg, 'unified', '');
    expect(html).toContain('<div class="r del" data-line="old:1"><button class="ln" data-side="old" data-n="1"');
    expect(html).toContain('&lt;b&gt;');
    expect(segmentHtml(seg, 'unified', 'javascript')).toContain('<span class="hljs-keyword">const</span>');
    const split = segmentHtml(segmentsOf(splitRows(unifiedRows('--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-a\n+b\n')), 'x.js', new Set())[0], 'split', '');
    expect(split).toContain('<span class="c del">a</span><button class="ln" data-side="new" data-n="1"');
  });
});
