import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../lib/api/pipeline';
import type { LiveRun } from '../../lib/pipeline';
import RunCard from './RunCard.svelte';

// Claude and Codex write their answers in Markdown: the card shows it
// rendered while it streams in, not only once the run has ended.
const run: Run = {
  id: 'r1', title: '', model: 'cli:claude:agent', role: 'Worker', folder: '', state: 'running', text: '', progress: [],
  usage: { inputTokens: 0, cachedInputTokens: 0, cacheCreationTokens: 0, outputTokens: 0, contextTokens: 0 },
  costUsd: 0, reportedCostUsd: 0, cost: { billing: 'subscription', billedUsd: 0, estimateUsd: 0, estimated: false }, startedAt: 0, finishedAt: 0,
};

let target: HTMLElement;
let card: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (card) unmount(card);
  card = null;
  target?.remove();
});

function show(live: LiveRun, answer = '') {
  target = document.createElement('div');
  document.body.append(target);
  card = mount(RunCard, { target, props: { run, live, answer } });
  flushSync();
  return target;
}

describe('RunCard', () => {
  it('renders the streaming answer as Markdown', () => {
    const el = show({ runId: 'r1', items: [], streaming: 'Changed **two** files:\n\n| file | lines |\n| --- | --- |\n| a.go | 3 |', ended: false });
    const s = el.querySelector('[data-streaming]')!;
    expect(s.querySelector('strong')?.textContent).toBe('two');
    expect(s.querySelector('table td')?.textContent).toBe('a.go');
    expect(s.textContent).not.toContain('**');
  });

  it('renders text between steps as Markdown', () => {
    const el = show({ runId: 'r1', items: [{ kind: 'text', text: 'Looking at `main.go` first.' }], streaming: '', ended: false });
    expect(el.querySelector('.interim code')?.textContent).toBe('main.go');
  });

  it('renders the final answer as Markdown', () => {
    const el = show({ runId: 'r1', items: [], streaming: '', ended: true, state: 'done' }, '- [x] tests pass');
    expect(el.querySelector('[data-answer] input[type=checkbox]')).not.toBeNull();
  });

  it('keeps what an interrupted run had said below its error', () => {
    target = document.createElement('div');
    document.body.append(target);
    const stopped: Run = {
      ...run, state: 'failed', text: 'Renamed **three** of the five files',
      error: 'Interrupted: osFoundry stopped while this run was going.', branch: 'osf/run-r1', diffStat: ' a.go | 2 +-',
    };
    card = mount(RunCard, { target, props: { run: stopped, failed: stopped.error } });
    flushSync();
    expect(target.querySelector('[role=alert]')?.textContent).toContain('Interrupted');
    const kept = target.querySelector('[data-partial]');
    expect(kept?.textContent).toContain('Output before it stopped');
    expect(kept?.querySelector('strong')?.textContent).toBe('three');
    expect(target.textContent).toContain('Changes kept on branch osf/run-r1');
  });
});
