import { describe, expect, it, vi } from 'vitest';
import type { PaneState } from './api/board';

const ps = (id: string, agentName = ''): PaneState => ({ id, label: id, state: 'idle', agent: 'claude', agentName, source: 'screen', reason: '', message: '', ended: false, paused: false, since: 0 });
const pane = (id: string) => ({ id, dir: '/w', folder: 'w', argv: [], exited: false });

describe('PaneStates.prune', () => {
  it('keeps the first state of a pane that came while an older list was on its way', async () => {
    const lists: Array<(v: unknown) => void> = [];
    vi.stubGlobal('go', { terminal: { Service: { List: () => new Promise((r) => lists.push(r)) } } });
    const { PaneStates } = await import('./sessions.svelte');
    const s = new PaneStates();
    s.states = { old: ps('old'), gone: ps('gone') };
    const pruning = s.prune(); // asked before "new" existed
    s.states = { ...s.states, new: ps('new', 'Claude Code') }; // its only state so far
    lists[0]([pane('old')]);
    await pruning;
    expect(Object.keys(s.states).sort()).toEqual(['new', 'old']);
    expect(s.states.new.agentName).toBe('Claude Code');
  });

  it('keeps every state when the list fails', async () => {
    vi.stubGlobal('go', { terminal: { Service: { List: () => Promise.reject(new Error('backend busy')) } } });
    const { PaneStates } = await import('./sessions.svelte');
    const s = new PaneStates();
    s.states = { a: ps('a') };
    await s.prune();
    expect(Object.keys(s.states)).toEqual(['a']);
  });
});
