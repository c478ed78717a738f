import { describe, expect, it } from 'vitest';
import { defaultLayout, dividers, fill, fromSaved, moveDivider, place, setKind, show, slotRects, step, type Layout } from './terminalLayout';

const L = (over: Partial<Layout>): Layout => ({ ...defaultLayout(), ...over });

describe('terminal layout', () => {
  it('fills empty slots with panes not on screen, in rail order, and forgets closed ones', () => {
    expect(fill(L({ kind: 'grid', slots: ['c', 'gone'] }), ['a', 'b', 'c', 'd']).slots).toEqual(['c', 'a', 'b', 'd']);
    expect(fill(L({ kind: 'columns', slots: [] }), ['a']).slots).toEqual(['a', '']);
    // One slot shows the newest pane, as before the split existed.
    expect(fill(L({ kind: 'single', slots: ['gone'] }), ['a', 'b']).slots).toEqual(['b']);
    // While panes are restored, a slot waits for its pane.
    expect(fill(L({ kind: 'columns', slots: ['later', ''] }), ['a'], true).slots).toEqual(['later', 'a']);
  });

  it('picking a pane on screen moves the keyboard to its slot; another pane takes the focused slot', () => {
    const l = L({ kind: 'columns', slots: ['a', 'b'], focus: 0 });
    expect(show(l, 'b')).toMatchObject({ slots: ['a', 'b'], focus: 1 });
    expect(show(l, 'c')).toMatchObject({ slots: ['c', 'b'], focus: 0 });
    expect(show(L({ kind: 'grid', slots: [], focus: 2 }), 'x').slots).toEqual(['', '', 'x']);
  });

  it('a pane dropped on a slot goes there; from another slot the two swap', () => {
    const l = L({ kind: 'grid', slots: ['a', 'b', 'c', 'd'], focus: 0 });
    expect(place(l, 'e', 2)).toMatchObject({ slots: ['a', 'b', 'e', 'd'], focus: 2 });
    expect(place(l, 'a', 3)).toMatchObject({ slots: ['d', 'b', 'c', 'a'], focus: 3 });
    expect(place(l, 'a', 4)).toBe(l); // no such slot
  });

  it('changing the layout keeps the pane with the keyboard on screen', () => {
    const grid = L({ kind: 'grid', slots: ['a', 'b', 'c', 'd'], focus: 3 });
    expect(setKind(grid, 'single', ['a', 'b', 'c', 'd'])).toMatchObject({ slots: ['d'], focus: 0 });
    expect(setKind(grid, 'columns', ['a', 'b', 'c', 'd'])).toMatchObject({ slots: ['a', 'd'], focus: 1 });
    expect(setKind(L({ slots: ['b'] }), 'grid', ['a', 'b', 'c'])).toMatchObject({ slots: ['b', 'a', 'c', ''], focus: 0 });
  });

  it('next and previous wrap around the rail', () => {
    expect(step(['a', 'b', 'c'], 'c', 1)).toBe('a');
    expect(step(['a', 'b', 'c'], 'a', -1)).toBe('c');
    expect(step(['a'], 'a', 1)).toBeNull();
    expect(step([], null, 1)).toBeNull();
    expect(step(['a', 'b'], null, -1)).toBe('b');
  });

  it('slots tile the screen at the dividers', () => {
    const r = slotRects('grid', [0.3, 0.6]);
    expect(r).toHaveLength(4);
    expect(r[3]).toEqual({ left: 0.3, top: 0.6, width: 0.7, height: 0.4 });
    expect(slotRects('rows', [0.3, 0.6])[1]).toEqual({ left: 0, top: 0.6, width: 1, height: 0.4 });
    expect(dividers('grid')).toEqual([{ axis: 'x', at: 0 }, { axis: 'y', at: 1 }]);
    expect(dividers('rows')).toEqual([{ axis: 'y', at: 1 }]);
    expect(dividers('single')).toEqual([]);
  });

  it('3 side by side and 3 stacked cut the screen in three at their two dividers', () => {
    const c = slotRects('columns3', [0.25, 0.75]);
    expect(c.map((r) => [r.left, r.width])).toEqual([[0, 0.25], [0.25, 0.5], [0.75, 0.25]]);
    expect(c.every((r) => r.top === 0 && r.height === 1)).toBe(true);
    const r = slotRects('rows3', [0.25, 0.5]);
    expect(r.map((x) => [x.top, x.height])).toEqual([[0, 0.25], [0.25, 0.25], [0.5, 0.5]]);
    expect(dividers('columns3')).toEqual([{ axis: 'x', at: 0 }, { axis: 'x', at: 1 }]);
    expect(dividers('rows3')).toEqual([{ axis: 'y', at: 0 }, { axis: 'y', at: 1 }]);
    // They start in thirds, and fill with panes in rail order.
    const l = setKind(L({ slots: ['b'] }), 'columns3', ['a', 'b', 'c', 'd']);
    expect(l).toMatchObject({ slots: ['b', 'a', 'c'], focus: 0, split: [1 / 3, 2 / 3] });
    expect(setKind(L({ kind: 'grid', slots: ['a', 'b', 'c', 'd'], focus: 3, split: [0.3, 0.7] }), 'rows3', ['a', 'b', 'c', 'd']))
      .toMatchObject({ slots: ['a', 'b', 'd'], focus: 2, split: [1 / 3, 2 / 3] });
    // Back to halves from thirds.
    expect(setKind(l, 'columns', ['a', 'b', 'c', 'd']).split).toEqual([0.5, 0.5]);
  });

  it("each divider of a 3-layout moves its own boundary and stops short of the other one", () => {
    expect(moveDivider('columns3', [1 / 3, 2 / 3], 0, 0.2)).toEqual([0.2, 2 / 3]);
    expect(moveDivider('columns3', [1 / 3, 2 / 3], 1, 0.8)).toEqual([1 / 3, 0.8]);
    expect(moveDivider('columns3', [0.3, 0.6], 0, 0.59)[0]).toBeCloseTo(0.45);
    expect(moveDivider('rows3', [0.3, 0.6], 1, 0.31)[1]).toBeCloseTo(0.45);
    expect(moveDivider('rows3', [0.3, 0.6], 0, 0.01)).toEqual([0.15, 0.6]);
    expect(moveDivider('columns3', [0.3, 0.6], 1, 0.99)).toEqual([0.3, 0.85]);
    // The 2-slot layouts move one position between the bounds, as before.
    expect(moveDivider('grid', [0.5, 0.5], 0, 0.9)).toEqual([0.85, 0.5]);
    expect(moveDivider('grid', [0.5, 0.5], 1, 0.4)).toEqual([0.5, 0.4]);
  });

  it('a saved layout is read back within bounds, an unknown one gives one pane', () => {
    expect(fromSaved({ kind: 'columns', slots: ['a', 'b', 'c'], split: [0.99, 0.1], focus: 7 })).toEqual({
      kind: 'columns', slots: ['a', 'b'], split: [0.85, 0.15], focus: 1,
    });
    expect(fromSaved({ kind: 'columns3', slots: ['a', 'b', 'c'], split: [0.3, 0.6], focus: 2 })).toEqual({
      kind: 'columns3', slots: ['a', 'b', 'c'], split: [0.3, 0.6], focus: 2,
    });
    // Dividers too close for a usable middle slot start again in thirds.
    expect(fromSaved({ kind: 'rows3', slots: [], split: [0.5, 0.55], focus: 0 }).split).toEqual([1 / 3, 2 / 3]);
    expect(fromSaved({ kind: 'tabs', slots: [], split: [], focus: 0 })).toEqual(defaultLayout());
    expect(fromSaved(null)).toEqual(defaultLayout());
  });
});
