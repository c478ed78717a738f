// The Terminal screen's split: which layout, which pane in which slot,
// where the dividers are and which slot has the keyboard. Pure functions
// over a plain value, so the screen, the shortcuts and the saved settings
// (backend/settings/layout.go, which checks the same bounds) agree.

export type LayoutKind = 'single' | 'columns' | 'columns3' | 'rows' | 'rows3' | 'grid';

export interface Layout {
  kind: LayoutKind;
  /** The pane id in each slot, '' for an empty slot. */
  slots: string[];
  /** Divider positions: across (a fraction of the width), down (of the
   * height); in the 3-layouts both dividers, first and second, along the
   * same side. */
  split: [number, number];
  /** The slot the keyboard is in. */
  focus: number;
}

export const layoutKinds: { id: LayoutKind; label: string; slots: number }[] = [
  { id: 'single', label: 'One pane', slots: 1 },
  { id: 'columns', label: 'Side by side', slots: 2 },
  { id: 'columns3', label: '3 side by side', slots: 3 },
  { id: 'rows', label: 'Stacked', slots: 2 },
  { id: 'rows3', label: '3 stacked', slots: 3 },
  { id: 'grid', label: '2 × 2 grid', slots: 4 },
];

export const minSplit = 0.15;
export const maxSplit = 0.85;

export function slotCount(kind: LayoutKind): number {
  return layoutKinds.find((k) => k.id === kind)?.slots ?? 1;
}

export function defaultLayout(): Layout {
  return { kind: 'single', slots: [], split: [0.5, 0.5], focus: 0 };
}

/** threeUp: the layouts whose two dividers cut the same side in three. */
export function threeUp(kind: LayoutKind): boolean {
  return kind === 'columns3' || kind === 'rows3';
}

/** defaultSplit is where a layout's dividers start: halves, or thirds. */
export function defaultSplit(kind: LayoutKind): [number, number] {
  return threeUp(kind) ? [1 / 3, 2 / 3] : [0.5, 0.5];
}

/** fromSaved turns the saved settings into a layout, the default for
 * anything it does not recognise (the backend refuses those anyway). */
export function fromSaved(s: { kind: string; slots: string[] | null; split: number[] | null; focus: number } | undefined | null): Layout {
  if (!s || !layoutKinds.some((k) => k.id === s.kind)) return defaultLayout();
  const kind = s.kind as LayoutKind;
  const n = slotCount(kind);
  let split: [number, number] = [clampSplit(s.split?.[0] ?? 0.5), clampSplit(s.split?.[1] ?? 0.5)];
  if (threeUp(kind) && split[1] - split[0] < minSplit - 1e-9) split = defaultSplit(kind);
  const slots = (s.slots ?? []).slice(0, n).map((id) => id ?? '');
  return { kind, slots, split, focus: Math.min(Math.max(0, s.focus | 0), n - 1) };
}

export function clampSplit(f: number): number {
  if (!Number.isFinite(f)) return 0.5;
  return Math.min(maxSplit, Math.max(minSplit, f));
}

/** moveDivider puts divider at (0 or 1, the split's index) at f, clamped
 * so that no slot gets narrower than minSplit: in the 3-layouts each
 * divider stops short of the other one. */
export function moveDivider(kind: LayoutKind, split: [number, number], at: 0 | 1, f: number): [number, number] {
  const s: [number, number] = [...split];
  s[at] = clampSplit(f);
  if (threeUp(kind)) {
    if (at === 0) s[0] = Math.min(s[0], s[1] - minSplit);
    else s[1] = Math.max(s[1], s[0] + minSplit);
  }
  return s;
}

/** focused is the pane in the focused slot, or null. */
export function focused(l: Layout): string | null {
  return l.slots[l.focus] || null;
}

/** fill makes the layout fit the panes there are (order: the rail's):
 * ids of closed panes leave their slots, and empty slots take the panes
 * not on screen yet, in rail order. keep: panes are still being restored
 * (or none is listed yet), so ids not listed keep their slots. */
export function fill(l: Layout, order: string[], keep = false): Layout {
  const n = slotCount(l.kind);
  const alive = new Set(keep ? [...order, ...l.slots] : order);
  const slots = Array.from({ length: n }, (_, i) => (l.slots[i] && alive.has(l.slots[i]) ? l.slots[i] : ''));
  const shown = new Set(slots.filter(Boolean));
  const rest = order.filter((id) => !shown.has(id));
  // One slot shows the newest pane, as before the split; more slots take
  // the panes in rail order.
  if (n === 1) rest.reverse();
  for (let i = 0; i < n; i++) if (!slots[i] && rest.length) slots[i] = rest.shift()!;
  return { ...l, slots, focus: Math.min(l.focus, n - 1) };
}

/** show is what picking a pane does (the rail, Needs you, next/previous):
 * a pane on screen gets the keyboard in its slot; another one takes the
 * focused slot's place. */
export function show(l: Layout, id: string): Layout {
  const at = l.slots.indexOf(id);
  if (at >= 0) return { ...l, focus: at };
  const slots = [...l.slots];
  while (slots.length <= l.focus) slots.push('');
  slots[l.focus] = id;
  return { ...l, slots };
}

/** place puts a pane dropped on a slot there; if it was in another slot,
 * the two slots swap. The slot gets the keyboard. */
export function place(l: Layout, id: string, slot: number): Layout {
  const n = slotCount(l.kind);
  if (slot < 0 || slot >= n) return l;
  const slots = Array.from({ length: n }, (_, i) => l.slots[i] ?? '');
  const from = slots.indexOf(id);
  if (from >= 0) slots[from] = slots[slot];
  slots[slot] = id;
  return { ...l, slots, focus: slot };
}

/** setKind changes the layout; the pane with the keyboard stays on screen
 * and keeps it. */
export function setKind(l: Layout, kind: LayoutKind, order: string[]): Layout {
  const n = slotCount(kind);
  const keep = focused(l);
  let slots = l.slots.slice(0, n);
  let focus = Math.min(l.focus, n - 1);
  if (keep && !slots.includes(keep)) slots[focus] = keep;
  else if (keep) focus = slots.indexOf(keep);
  // Halves and thirds do not share divider positions.
  const split = threeUp(kind) === threeUp(l.kind) ? l.split : defaultSplit(kind);
  return fill({ ...l, kind, slots, focus, split }, order);
}

/** step is the pane after (+1) or before (-1) the focused one in rail
 * order, wrapping around; null when there is none to go to. */
export function step(order: string[], current: string | null, dir: 1 | -1): string | null {
  if (order.length === 0) return null;
  const at = current ? order.indexOf(current) : -1;
  if (at < 0) return order[dir === 1 ? 0 : order.length - 1];
  if (order.length === 1) return null;
  return order[(at + dir + order.length) % order.length];
}

/** Rect is a slot's place as fractions of the screen. */
export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** slotRects are where each slot is drawn. */
export function slotRects(kind: LayoutKind, split: [number, number]): Rect[] {
  const [x, y] = split;
  switch (kind) {
    case 'columns':
      return [
        { left: 0, top: 0, width: x, height: 1 },
        { left: x, top: 0, width: 1 - x, height: 1 },
      ];
    case 'rows':
      return [
        { left: 0, top: 0, width: 1, height: y },
        { left: 0, top: y, width: 1, height: 1 - y },
      ];
    case 'columns3':
      return [
        { left: 0, top: 0, width: x, height: 1 },
        { left: x, top: 0, width: y - x, height: 1 },
        { left: y, top: 0, width: 1 - y, height: 1 },
      ];
    case 'rows3':
      return [
        { left: 0, top: 0, width: 1, height: x },
        { left: 0, top: x, width: 1, height: y - x },
        { left: 0, top: y, width: 1, height: 1 - y },
      ];
    case 'grid':
      return [
        { left: 0, top: 0, width: x, height: y },
        { left: x, top: 0, width: 1 - x, height: y },
        { left: 0, top: y, width: x, height: 1 - y },
        { left: x, top: y, width: 1 - x, height: 1 - y },
      ];
    default:
      return [{ left: 0, top: 0, width: 1, height: 1 }];
  }
}

/** Divider is one divider: axis 'x' moves across, 'y' down; at is its
 * position's index in the split. */
export interface Divider {
  axis: 'x' | 'y';
  at: 0 | 1;
}

/** dividers: which dividers a layout has. */
export function dividers(kind: LayoutKind): Divider[] {
  switch (kind) {
    case 'columns':
      return [{ axis: 'x', at: 0 }];
    case 'rows':
      return [{ axis: 'y', at: 1 }];
    case 'grid':
      return [{ axis: 'x', at: 0 }, { axis: 'y', at: 1 }];
    case 'columns3':
      return [{ axis: 'x', at: 0 }, { axis: 'x', at: 1 }];
    case 'rows3':
      return [{ axis: 'y', at: 0 }, { axis: 'y', at: 1 }];
    default:
      return [];
  }
}

/** sameLayout: nothing to save. */
export function sameLayout(a: Layout, b: Layout): boolean {
  return a.kind === b.kind && a.focus === b.focus && a.split[0] === b.split[0] && a.split[1] === b.split[1] &&
    a.slots.length === b.slots.length && a.slots.every((s, i) => s === b.slots[i]);
}
