import { describe, expect, it } from 'vitest';
import { closeQuestion, railState, railWhat } from './terminal.svelte';
import type { PaneInfo } from './api/terminal';
import type { PaneState } from './api/board';

const pane = (over: Partial<PaneInfo> = {}): PaneInfo => ({
  id: 'p-1', pid: 1, dir: '/home/me/work', folder: 'work', argv: [], foreground: 'bash', command: 'bash', shellInFront: true,
  title: '', cols: 80, rows: 24, exited: false, exitCode: 0, paused: false, canPause: false, startedAt: 0, ...over,
});
const state = (over: Partial<PaneState> = {}): PaneState => ({
  id: 'p-1', label: 'work', state: 'idle', agent: '', agentName: '', source: 'none', reason: '', message: '', ended: false, paused: false, since: 0, ...over,
});
const claude = (s: PaneState['state']) => state({ state: s, agent: 'claude', agentName: 'Claude Code', source: 'screen' });

describe('rail entries', () => {
  it('read state · folder for every pane, then the agent or the running command', () => {
    const rows = [
      [pane({ argv: ['claude'], foreground: 'claude' }), claude('working')],
      [pane({ command: 'npm run dev' }), state({ state: 'working', source: 'activity', command: 'npm run dev' })],
      [pane(), state()],
      [pane(), undefined],
    ] as const;
    expect(rows.map(([p, st]) => [railState(p, st), railWhat(p, st)])).toEqual([
      ['Working · work', 'Claude Code'],
      ['Working · work', 'npm run dev'],
      ['Idle · work', 'bash'],
      ['Idle · work', 'bash'],
    ]);
  });
  it('say Paused, Needs you and Exited the same way', () => {
    expect(railState(pane(), { ...claude('blocked'), paused: true })).toBe('Paused · work');
    expect(railState(pane(), claude('blocked'))).toBe('Needs you · work');
    expect(railState(pane({ exited: true, exitCode: 2, argv: ['/usr/bin/make', 'test'] }), state())).toBe('Exited 2 · work');
    expect(railWhat(pane({ exited: true, exitCode: 2, argv: ['/usr/bin/make', 'test'] }), state())).toBe('make test');
  });
  it('name the running program once the agent ended', () => {
    expect(railWhat(pane({ command: 'bash' }), { ...claude('idle'), ended: true })).toBe('bash');
  });
});

describe('closeQuestion', () => {
  it('asks before ending an agent that works or waits for a decision', () => {
    expect(closeQuestion(pane(), claude('working'))).toBe('Claude Code is working in work. Closing the pane ends it and everything else running there.');
    expect(closeQuestion(pane(), claude('blocked'))).toMatch(/^Claude Code is waiting for your decision in work\./);
  });
  it('asks before ending a program running in front of the shell', () => {
    expect(closeQuestion(pane(), state({ state: 'working', source: 'activity', command: 'npm run dev' }))).toMatch(/^npm run dev is running in work\./);
  });
  it('asks before ending a program in front of the shell that has not printed yet', () => {
    const vim = pane({ foreground: 'vim', command: 'vim notes.md', shellInFront: false });
    expect(closeQuestion(vim, undefined)).toMatch(/^vim notes\.md is running in work\./);
    expect(closeQuestion(vim, state())).toMatch(/^vim notes\.md is running in work\./);
    expect(closeQuestion(pane(), undefined)).toBeNull();
  });
  it('closes at once an idle agent, a shell at its prompt and an exited pane', () => {
    expect(closeQuestion(pane(), claude('idle'))).toBeNull();
    expect(closeQuestion(pane(), state({ state: 'working', source: 'activity' }))).toBeNull(); // printed a moment ago, shell in front
    expect(closeQuestion(pane({ exited: true }), claude('working'))).toBeNull();
  });

  it('read the name the person gave a pane instead of its folder', () => {
    expect(railState(pane({ name: 'checkout fix' }), claude('working'))).toBe('Working · checkout fix');
    expect(railState(pane({ name: '' }), state())).toBe('Idle · work');
    expect(closeQuestion(pane({ name: 'checkout fix' }), claude('working'))).toBe('Claude Code is working in checkout fix. Closing the pane ends it and everything else running there.');
    expect(closeQuestion(pane({ name: 'checkout fix' }), state({ state: 'working', source: 'activity', command: 'sleep 300' }))).toMatch(/^sleep 300 is running in checkout fix\./);
  });
});
