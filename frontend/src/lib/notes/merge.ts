// Line diff and three-way merge for re-applying the person's change on top
// of a Note that changed underneath them (an agent's accepted edit). The
// merge never drops a line: where both sides changed the same place it keeps
// the current text and then the person's lines.

export type DiffOp = { op: 'eq' | 'del' | 'ins'; line: string };

// Beyond this many DP cells (e.g. two 3,000-line tabs changed everywhere)
// the middle is treated as one replaced block: still lossless, just coarse.
const MAX_CELLS = 4_000_000;

export function splitLines(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}

/** diffLines returns the edit script turning a into b (LCS-based). */
export function diffLines(a: string[], b: string[]): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const out: DiffOp[] = a.slice(0, pre).map((line) => ({ op: 'eq', line }));
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  if (am.length * bm.length > MAX_CELLS) {
    out.push(...am.map((line): DiffOp => ({ op: 'del', line })), ...bm.map((line): DiffOp => ({ op: 'ins', line })));
  } else {
    out.push(...lcsScript(am, bm));
  }
  out.push(...a.slice(a.length - suf).map((line): DiffOp => ({ op: 'eq', line })));
  return out;
}

function lcsScript(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = a[i] === b[j] ? dp[(i + 1) * w + j + 1] + 1 : Math.max(dp[(i + 1) * w + j], dp[i * w + j + 1]);
    }
  }
  const out: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'eq', line: a[i] });
      i++;
      j++;
    } else if (dp[(i + 1) * w + j] >= dp[i * w + j + 1]) {
      out.push({ op: 'del', line: a[i++] });
    } else {
      out.push({ op: 'ins', line: b[j++] });
    }
  }
  while (i < n) out.push({ op: 'del', line: a[i++] });
  while (j < m) out.push({ op: 'ins', line: b[j++] });
  return out;
}

/** A hunk replaces base lines [start, end) with lines. */
interface Hunk { start: number; end: number; lines: string[]; side: 'mine' | 'theirs' }

function hunks(base: string[], other: string[], side: Hunk['side']): Hunk[] {
  const out: Hunk[] = [];
  let pos = 0;
  let cur: Hunk | null = null;
  for (const d of diffLines(base, other)) {
    if (d.op === 'eq') {
      if (cur) out.push(cur);
      cur = null;
      pos++;
      continue;
    }
    cur ??= { start: pos, end: pos, lines: [], side };
    if (d.op === 'del') {
      cur.end = ++pos;
    } else {
      cur.lines.push(d.line);
    }
  }
  if (cur) out.push(cur);
  return out;
}

function applyIn(base: string[], from: number, to: number, hs: Hunk[]): string[] {
  const out: string[] = [];
  let pos = from;
  for (const h of hs) {
    out.push(...base.slice(pos, h.start), ...h.lines);
    pos = h.end;
  }
  out.push(...base.slice(pos, to));
  return out;
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export interface MergeResult {
  text: string;
  /** places both sides changed differently (both kept: current first, then the person's lines) */
  conflicts: number;
}

/** merge3 re-applies base→mine onto theirs (the current text). */
export function merge3(base: string, mine: string, theirs: string): MergeResult {
  const b = splitLines(base);
  const all = [...hunks(b, splitLines(mine), 'mine'), ...hunks(b, splitLines(theirs), 'theirs')].sort(
    (x, y) => x.start - y.start || x.end - y.end,
  );
  const out: string[] = [];
  let conflicts = 0;
  let pos = 0;
  let i = 0;
  while (i < all.length) {
    // A group is a run of hunks whose base ranges overlap or touch.
    const group = [all[i]];
    let end = all[i].end;
    for (i++; i < all.length && all[i].start <= end; i++) {
      group.push(all[i]);
      end = Math.max(end, all[i].end);
    }
    const start = group[0].start;
    out.push(...b.slice(pos, start));
    pos = end;
    const region = b.slice(start, end);
    const m = applyIn(b, start, end, group.filter((h) => h.side === 'mine'));
    const t = applyIn(b, start, end, group.filter((h) => h.side === 'theirs'));
    if (same(m, t) || same(m, region)) {
      out.push(...t);
    } else if (same(t, region)) {
      out.push(...m);
    } else {
      conflicts++;
      out.push(...t, ...withoutLines(m, t));
    }
  }
  out.push(...b.slice(pos));
  return { text: out.join('\n'), conflicts };
}

/** withoutLines returns the lines of a that b does not hold (as a multiset). */
function withoutLines(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  return a.filter((l) => {
    const n = left.get(l) ?? 0;
    if (n > 0) {
      left.set(l, n - 1);
      return false;
    }
    return true;
  });
}

/** lostLines counts lines of want missing from got (the e2e's and tests' measure). */
export function lostLines(want: string, got: string): number {
  return withoutLines(splitLines(want), splitLines(got)).length;
}
