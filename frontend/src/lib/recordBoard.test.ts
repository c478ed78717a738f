import { describe, expect, it } from 'vitest';
import { moveKey, stepStatus } from './recordBoard';

const key = (k: string, mods: Partial<Record<'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey', boolean>> = {}) => ({
  key: k, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods,
});

describe('moveKey', () => {
  it.each([
    ['Alt+ArrowRight moves right', key('ArrowRight', { altKey: true }), 1],
    ['Alt+ArrowLeft moves left', key('ArrowLeft', { altKey: true }), -1],
    ['a plain arrow is not a move', key('ArrowRight'), 0],
    ['Ctrl+Alt+arrow is not a move', key('ArrowRight', { altKey: true, ctrlKey: true }), 0],
    ['Alt+Shift+arrow is not a move', key('ArrowLeft', { altKey: true, shiftKey: true }), 0],
    ['Alt+ArrowDown is not a move', key('ArrowDown', { altKey: true }), 0],
  ])('%s', (_, e, want) => expect(moveKey(e)).toBe(want));
});

describe('stepStatus', () => {
  const cols = ['Draft', 'Review', 'Ready'];
  it.each([
    ['next', 'Draft', 1, 'Review'],
    ['previous', 'Ready', -1, 'Review'],
    ['no wrap at the end', 'Ready', 1, null],
    ['no wrap at the start', 'Draft', -1, null],
    ['not a move', 'Review', 0, null],
    ['a status not on the board', 'Shipped', 1, null],
  ] as const)('%s', (_, cur, step, want) => expect(stepStatus(cols, cur, step)).toBe(want));
});
