// Line diff and three-way merge for re-applying the person's change on top
// of a Note that changed underneath them (an agent's accepted edit). jsdiff
// (Myers' O(ND) diff) aligns the compare view; node-diff3 finds what each
// side changed from the common base. Our one rule on top: the merge never
// drops a line. Where both sides changed the same place it keeps the
// current text and then the person's lines the current text lacks.
import { diffArrays } from 'diff';
import { diff3Merge } from 'node-diff3';

export type DiffOp = { op: 'eq' | 'del' | 'ins'; line: string };

export function splitLines(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}

/** diffLines returns the edit script turning a into b. */
export function diffLines(a: string[], b: string[]): DiffOp[] {
  const out: DiffOp[] = [];
  for (const c of diffArrays(a, b)) {
    const op = c.added ? 'ins' : c.removed ? 'del' : 'eq';
    for (const line of c.value) out.push({ op, line });
  }
  return out;
}

export interface MergeResult {
  text: string;
  /** places both sides changed differently (both kept: current first, then the person's lines) */
  conflicts: number;
}

/** merge3 re-applies base→mine onto theirs (the current text). */
export function merge3(base: string, mine: string, theirs: string): MergeResult {
  const out: string[] = [];
  let conflicts = 0;
  for (const r of diff3Merge(splitLines(mine), splitLines(base), splitLines(theirs), { excludeFalseConflicts: true })) {
    if (r.ok) out.push(...r.ok);
    else if (r.conflict) {
      conflicts++;
      out.push(...r.conflict.b, ...withoutLines(r.conflict.a, r.conflict.b));
    }
  }
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
