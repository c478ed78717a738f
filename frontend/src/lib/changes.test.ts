import { describe, expect, it } from 'vitest';
import { fileRows, patchRows } from './changes';

describe('fileRows', () => {
  it('shows changed lines with a little context and folds the rest', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n');
    const after = before.replace('e', 'E');
    const rows = fileRows(before, after, 2);
    expect(rows.map((r) => `${r.kind}:${r.text}`)).toEqual([
      'fold:2 unchanged lines',
      'ctx:c',
      'ctx:d',
      'del:e',
      'add:E',
      'ctx:f',
      'ctx:g',
      'fold:3 unchanged lines',
    ]);
  });
  it('a new file is all additions', () => {
    expect(fileRows('', 'x\ny', 3).map((r) => r.kind)).toEqual(['add', 'add']);
  });
  it('keeps one unchanged line instead of folding it', () => {
    expect(fileRows('a\nb\nc', 'A\nb\nC', 0).map((r) => r.text)).toEqual(['a', 'A', 'b', 'c', 'C']);
  });
});

describe('patchRows', () => {
  it('tells headers, hunks, additions and removals apart', () => {
    const rows = patchRows('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n');
    expect(rows.map((r) => r.kind)).toEqual(['head', 'head', 'head', 'hunk', 'del', 'add', 'ctx']);
    expect(rows[4].text).toBe('old');
  });
});
