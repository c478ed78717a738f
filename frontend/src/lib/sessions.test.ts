import { describe, expect, it } from 'vitest';
import type { BoardCard, PaneState } from './api/board';
import { applyFilter, byColumn, cardAction, countNeedsYou, filterLabel, needsYouLabel, isJumpKey, jumpHint, needsYou, nextNeedingYou, noFilter, summaryHref } from './sessions';

const card = (over: Partial<BoardCard>): BoardCard => ({
  key: 'terminal/p', source: 'terminal', id: 'p', kind: 'terminal', title: 't', folder: 'shop-api',
  state: 'running', why: '', startedAt: 0, updatedAt: 0, canPause: false, ...over,
});
const ps = (id: string, state: PaneState['state']): PaneState => ({ id, label: id, state, agent: 'claude', agentName: '', source: 'screen', reason: '', message: '', ended: false, paused: false, since: 0 });

describe('filter', () => {
  const now = new Date(2026, 4, 10, 12, 0, 0);
  const cards = [
    card({ key: 'a', kind: 'terminal', state: 'needs_you', updatedAt: now.getTime() - 1000 }),
    card({ key: 'b', kind: 'chat', state: 'idle', updatedAt: now.getTime() - 3 * 86400e3 }),
    card({ key: 'c', kind: 'agent', state: 'running', updatedAt: now.getTime() - 40 * 86400e3 }),
  ];
  it.each([
    [noFilter(), ['a', 'b', 'c'], 'Filter'],
    [{ ...noFilter(), needsMe: true }, ['a'], 'Filtered'],
    [{ ...noFilter(), kinds: ['chat' as const, 'agent' as const] }, ['b', 'c'], 'Filtered'],
    [{ ...noFilter(), period: 'today' as const }, ['a'], 'Filtered'],
    [{ ...noFilter(), period: 'week' as const }, ['a', 'b'], 'Filtered'],
    [{ ...noFilter(), period: 'month' as const, kinds: ['agent' as const] }, [], 'Filtered'],
  ])('%j', (f, keys, label) => {
    expect(applyFilter(cards, f, now).map((c) => c.key)).toEqual(keys);
    expect(filterLabel(f)).toBe(label);
  });
  it('groups by column', () => {
    const cols = byColumn(cards);
    expect(cols.needs_you.map((c) => c.key)).toEqual(['a']);
    expect(cols.paused).toEqual([]);
  });
});

describe('rail and jump', () => {
  it('jumps to the next blocked pane, wrapping', () => {
    const states = { a: ps('a', 'blocked'), b: ps('b', 'working'), c: ps('c', 'blocked') };
    const order = ['a', 'b', 'c'];
    expect(nextNeedingYou(order, states, null)).toBe('a');
    expect(nextNeedingYou(order, states, 'a')).toBe('c');
    expect(nextNeedingYou(order, states, 'c')).toBe('a');
    expect(nextNeedingYou(order, { b: ps('b', 'idle') }, 'a')).toBeNull();
  });
  it('Mod+. and its hint', () => {
    const k = { key: '.', metaKey: false, ctrlKey: true, altKey: false, shiftKey: false };
    expect(isJumpKey(k, false)).toBe(true);
    expect(isJumpKey(k, true)).toBe(false);
    expect(isJumpKey({ ...k, ctrlKey: false, metaKey: true }, true)).toBe(true);
    expect(isJumpKey({ ...k, key: ',' }, false)).toBe(false);
    expect(jumpHint(true)).toBe('⌘. to jump to what needs you');
    expect(jumpHint(false)).toBe('Ctrl+. to jump to what needs you');
  });
});

describe('paused sessions', () => {
  const paused = (id: string, state: PaneState['state']): PaneState => ({ ...ps(id, state), paused: true });
  it('a paused pane never needs you', () => {
    expect(needsYou(paused('p1', 'blocked'))).toBe(false);
    expect(needsYou(ps('p1', 'blocked'))).toBe(true);
    expect(needsYou(undefined)).toBe(false);
  });
  it('Mod+. skips paused panes', () => {
    const states = { a: paused('a', 'blocked'), b: ps('b', 'blocked') };
    expect(nextNeedingYou(['a', 'b'], states, 'b')).toBe('b');
    expect(nextNeedingYou(['a'], { a: paused('a', 'blocked') }, null)).toBeNull();
  });
  it.each([
    ['running', true, 'pause'],
    ['needs_you', true, 'pause'],
    ['running', false, null],
    ['paused', true, 'resume'],
    ['paused', false, null],
    ['idle', true, null],
    ['done', true, null],
    ['failed', true, null],
  ] as const)('a %s card with canPause=%s offers %s', (state, canPause, want) => {
    expect(cardAction(card({ state, canPause }))).toBe(want);
  });
});

describe('sidebar badge', () => {
  it('counts the sessions that need you, of every kind', () => {
    const cards = [
      card({ key: 'a', state: 'needs_you' }),
      card({ key: 'b', kind: 'chat', state: 'needs_you' }),
      card({ key: 'c', state: 'running' }),
      card({ key: 'd', state: 'done' }),
    ];
    expect(countNeedsYou(cards)).toBe(2);
    expect(countNeedsYou([])).toBe(0);
  });
  it('announces the count with the item', () => {
    expect(needsYouLabel('Sessions', 0)).toBe('Sessions');
    expect(needsYouLabel('Sessions', 1)).toBe('Sessions, 1 needs you');
    expect(needsYouLabel('Sessions', 3)).toBe('Sessions, 3 need you');
  });
});

describe('summaryHref', () => {
  it('opens a Done summary in Knowledge bases once it is an article', () => {
    expect(summaryHref({ summaryKb: 'kb 1', summaryArticle: 'art/2' })).toBe('#/knowledge?kb=kb%201&article=art%2F2');
    expect(summaryHref({ summaryKb: '', summaryArticle: '' })).toBe('');
    expect(summaryHref(undefined)).toBe('');
  });
});
