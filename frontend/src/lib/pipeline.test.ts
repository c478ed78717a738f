import { describe, expect, it } from 'vitest';
import type { ModelGroup, Run, RunEvent } from './api/pipeline';
import { applyRunEvent, composerPlaceholder, duration, findModel, inProgress, liveFromRun, nextEnabled, parseProgress, pickerRows, prettyArgs, runPhase, stateLabel, usageLine } from './pipeline';

describe('parseProgress', () => {
  const cases: [string, string, string, string][] = [
    // line, kind, head, detail
    ['Using memory_search — {"query":"release plan"}', 'tool', 'Using memory_search', '{"query":"release plan"}'],
    ['Using Bash — {"command":"echo hi","description":"marker"}', 'shell', 'Using Bash', '{"command":"echo hi","description":"marker"}'],
    ['Using shell — git status', 'shell', 'Using shell', 'git status'],
    ['Using memory_search…', 'tool', 'Using memory_search…', ''],
    ['Thinking: the file is missing', 'thinking', 'Thinking:', 'the file is missing'],
    ['Edited src/a.go', 'edit', 'Edited', 'src/a.go'],
    ['Codex: stream disconnected', 'error', 'Codex:', 'stream disconnected'],
    ['memory_search failed: no index', 'failed', 'memory_search failed:', 'no index'],
    ['Working on branch osf/run-ab12 in its own worktree', 'note', 'Working on branch osf/run-ab12 in its own worktree', ''],
    ['Using', 'note', 'Using', ''],
  ];
  for (const [line, kind, head, detail] of cases) {
    it(`reads ${JSON.stringify(line)}`, () => {
      const s = parseProgress(line);
      expect([s.kind, s.head, s.detail]).toEqual([kind, head, detail]);
      // What is shown is exactly the backend's line.
      expect(s.head + s.sep + s.detail).toBe(line);
    });
  }
});

describe('applyRunEvent', () => {
  const ev = (kind: RunEvent['kind'], text: string, extra: Partial<RunEvent> = {}): RunEvent => ({ runId: 'r1', kind, text, ...extra });
  it('builds the timeline in order, streaming text until the whole message arrives', () => {
    const live = liveFromRun({ id: 'r1', state: 'running', progress: ['Using Bash — {"command":"ls"}'] } as Run);
    applyRunEvent(live, ev('partial', 'I found '));
    applyRunEvent(live, ev('partial', 'the plan'));
    expect(live.streaming).toBe('I found the plan');
    applyRunEvent(live, ev('text', 'I found the plan.'));
    expect(live.streaming).toBe('');
    applyRunEvent(live, ev('progress', 'Using memory_search — {"query":"x"}'));
    applyRunEvent(live, ev('raw', '{"type":"mystery"}'));
    applyRunEvent(live, ev('session', 'sess-1'));
    expect(live.items).toEqual([
      { kind: 'step', text: 'Using Bash — {"command":"ls"}' },
      { kind: 'text', text: 'I found the plan.' },
      { kind: 'step', text: 'Using memory_search — {"query":"x"}' },
      { kind: 'raw', text: '{"type":"mystery"}' },
    ]);
    expect(live.ended).toBe(false);
    applyRunEvent(live, ev('end', 'the run was cancelled', { state: 'failed' }));
    expect([live.ended, live.state, live.error]).toEqual([true, 'failed', 'the run was cancelled']);
  });
  it("ignores other runs' events", () => {
    const live = liveFromRun({ id: 'r1', state: 'running', progress: [] as string[] } as Run);
    applyRunEvent(live, { runId: 'r2', kind: 'progress', text: 'Using x…' });
    applyRunEvent(live, { runId: 'r2', kind: 'end', text: '', state: 'done' });
    expect(live.items).toEqual([]);
    expect(live.ended).toBe(false);
  });
});

describe('a paused run', () => {
  it('is still in progress: its timeline is not ended', () => {
    expect(['running', 'paused', 'needs_you', 'idle', 'done', 'failed'].filter(inProgress)).toEqual(['running', 'paused']);
    expect(liveFromRun({ id: 'r1', state: 'paused', progress: ['Using Bash — {}'] } as Run).ended).toBe(false);
    expect(liveFromRun({ id: 'r1', state: 'done', progress: [] as string[] } as Run).ended).toBe(true);
  });
  it("shows the backend's state until its end event, then the state it ended in", () => {
    const cases: [Run['state'], Parameters<typeof runPhase>[1], string][] = [
      ['running', undefined, 'running'],
      ['paused', { ended: false }, 'paused'],
      ['paused', { ended: true, state: 'failed' }, 'failed'],
      ['running', { ended: true, state: 'done' }, 'done'],
      ['running', { ended: true }, 'running'],
      ['done', { ended: true, state: 'failed' }, 'done'],
    ];
    for (const [state, live, want] of cases) expect(runPhase({ state }, live), `${state} ${JSON.stringify(live)}`).toBe(want);
    expect(stateLabel(runPhase({ state: 'paused' }))).toBe('Paused');
  });
  it('makes the task box say so', () => {
    expect(composerPlaceholder('paused', 'Worker')).toBe('Paused — resume to continue');
    expect(composerPlaceholder('running', 'Worker')).toBe('The run is going… you can write the next task meanwhile');
    expect(composerPlaceholder(undefined, 'Worker')).toBe('Give the Worker a task');
  });
});

describe('model picker', () => {
  const groups: ModelGroup[] = [
    {
      label: 'CLI agents',
      provider: 'External AI (subscription)',
      note: 'autonomous — runs in your local folder',
      models: [
        { id: 'cli:claude', label: 'Claude Code — chat (no tools)', available: false, reason: "'cli:claude' is chat mode" },
        { id: 'cli:claude:agent', label: 'Claude Code — agent', available: true },
        { id: 'cli:codex:agent', label: 'Codex — agent', available: false, reason: 'Codex is not installed' },
      ],
    },
    { label: 'Empty', models: [] },
    { label: 'API models', models: [{ id: 'api:x', label: 'X', available: true }] },
  ];
  it('lists each non-empty group with its label and note, then its options', () => {
    const rows = pickerRows(groups);
    expect(rows.map((r) => (r.type === 'group' ? `# ${r.label} [${r.provider}] (${r.note})` : `${r.id}${r.available ? '' : ' ✗'}`))).toEqual([
      '# CLI agents [External AI (subscription)] (autonomous — runs in your local folder)',
      'cli:claude ✗',
      'cli:claude:agent',
      'cli:codex:agent ✗',
      '# API models [] ()',
      'api:x',
    ]);
    const codex = rows[3];
    expect(codex.type === 'option' && codex.group).toBe('CLI agents');
  });
  it('finds an assigned model and its group', () => {
    expect(findModel(groups, 'cli:claude:agent')?.group.label).toBe('CLI agents');
    expect(findModel(groups, 'cli:codex')).toBeNull();
  });
  it('moves with the arrows over available options only, wrapping', () => {
    const rows = pickerRows(groups);
    expect(nextEnabled(rows, 2, 1)).toBe(5);
    expect(nextEnabled(rows, 5, 1)).toBe(2);
    expect(nextEnabled(rows, 2, -1)).toBe(5);
  });
});

describe('formatting', () => {
  it('shows usage with the subscription cost', () => {
    const u = { inputTokens: 10, cachedInputTokens: 128, cacheCreationTokens: 0, outputTokens: 42, contextTokens: 1138 };
    expect(usageLine(u, { billing: 'subscription', billedUsd: 0, estimateUsd: 0, estimated: false })).toBe('context 1,138 tokens · output 42 tokens · subscription');
    expect(usageLine(u, { billing: 'subscription', billedUsd: 0, estimateUsd: 0.0123, estimated: true })).toBe('context 1,138 tokens · output 42 tokens · subscription · ≈$0.01 at API prices');
    expect(usageLine(undefined, undefined)).toBe('subscription');
  });
  it('formats durations and ignores unfinished runs', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(duration(t, t + 850)).toBe('850 ms');
    expect(duration(t, t + 12_000)).toBe('12 s');
    expect(duration(t, t + 184_000)).toBe('3 min 4 s');
    expect(duration(t, 0)).toBe('');
  });
  it('names board states and pretty-prints arguments', () => {
    expect(stateLabel('needs_you')).toBe('Needs you');
    expect(prettyArgs({ id: 'p1', text: 'ls' })).toBe('{\n  "id": "p1",\n  "text": "ls"\n}');
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArgs(null)).toBe('{}');
  });
});
