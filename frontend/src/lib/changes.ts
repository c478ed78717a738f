// Rows of the diff a change set's card shows: a file's text before and
// after (jsdiff through lib/notes/merge) with unchanged runs folded, or a
// unified patch / commit diff line by line. Pure: unit-tested.
import { diffLines, splitLines } from './notes/merge';

export type RowKind = 'ctx' | 'add' | 'del' | 'fold' | 'head' | 'hunk';
export interface Row {
  kind: RowKind;
  text: string;
}

/** fileRows diffs before → after, keeping `context` unchanged lines around each change. */
export function fileRows(before: string, after: string, context = 3): Row[] {
  const trim = (s: string) => (s.endsWith('\n') ? s.slice(0, -1) : s);
  const ops = diffLines(splitLines(trim(before)), splitLines(trim(after)));
  const near = ops.map(() => false);
  ops.forEach((o, i) => {
    if (o.op === 'eq') return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) near[j] = true;
  });
  const out: Row[] = [];
  for (let i = 0; i < ops.length; ) {
    const o = ops[i];
    if (o.op !== 'eq' || near[i]) {
      out.push({ kind: o.op === 'eq' ? 'ctx' : o.op === 'ins' ? 'add' : 'del', text: o.line });
      i++;
      continue;
    }
    let j = i;
    while (j < ops.length && ops[j].op === 'eq' && !near[j]) j++;
    if (j - i === 1) out.push({ kind: 'ctx', text: o.line });
    else out.push({ kind: 'fold', text: `${j - i} unchanged lines` });
    i = j;
  }
  return out;
}

/** patchRows reads a unified diff (git diff / git show). */
export function patchRows(patch: string): Row[] {
  const lines = patch.endsWith('\n') ? patch.slice(0, -1).split('\n') : patch.split('\n');
  let inHunk = false;
  return lines.map((l): Row => {
    if (l.startsWith('@@')) {
      inHunk = true;
      return { kind: 'hunk', text: l };
    }
    if (l.startsWith('diff --git')) inHunk = false;
    if (!inHunk) return { kind: 'head', text: l };
    if (l.startsWith('+')) return { kind: 'add', text: l.slice(1) };
    if (l.startsWith('-')) return { kind: 'del', text: l.slice(1) };
    return { kind: 'ctx', text: l.slice(1) };
  });
}
