import { describe, expect, it } from 'vitest';
import { defaultLayout, dividers, fill, fromSaved, place, setKind, show, slotRects, step, type Layout } from './terminalLayout';

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
    expect(dividers('grid')).toEqual(['x', 'y']);
    expect(dividers('single')).toEqual([]);
  });

  it('a saved layout is read back within bounds, an unknown one gives one pane', () => {
    expect(fromSaved({ kind: 'columns', slots: ['a', 'b', 'c'], split: [0.99, 0.1], focus: 7 })).toEqual({
      kind: 'columns', slots: ['a', 'b'], split: [0.85, 0.15], focus: 1,
    });
    expect(fromSaved({ kind: 'tabs', slots: [], split: [], focus: 0 })).toEqual(defaultLayout());
    expect(fromSaved(null)).toEqual(defaultLayout());
  });
});
