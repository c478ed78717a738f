// Layout math of VirtualList: rows of measured (or estimated) heights, of
// which only the ones in view are in the DOM.

/** offsets returns n+1 prefix sums: row i spans offsets[i] … offsets[i+1].
 * heights[i] is the measured height, or undefined (then estimate). */
export function offsets(n: number, heights: ArrayLike<number | undefined>, estimate: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const h = heights[i];
    out[i + 1] = out[i] + (h && h > 0 ? h : estimate);
  }
  return out;
}

/** rowAt returns the index of the row at pixel y (binary search). */
export function rowAt(offs: Float64Array, y: number): number {
  const n = offs.length - 1;
  if (n <= 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offs[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** visibleRange returns the rows [start, end) to draw for a viewport at
 * scrollTop of the given height, with overscan rows on each side. */
export function visibleRange(offs: Float64Array, scrollTop: number, height: number, overscan: number): { start: number; end: number } {
  const n = offs.length - 1;
  if (n <= 0) return { start: 0, end: 0 };
  const first = rowAt(offs, Math.max(0, scrollTop));
  const last = rowAt(offs, Math.max(0, scrollTop + Math.max(height, 1) - 1));
  return { start: Math.max(0, first - overscan), end: Math.min(n, last + 1 + overscan) };
}
