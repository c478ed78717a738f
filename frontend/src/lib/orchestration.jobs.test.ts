import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from './api/orchestrate';
import { JobsState } from './orchestration.svelte';

const job = (over: Partial<Job>): Job => ({
  id: 'fleet_1',
  kind: 'fleet',
  state: 'running',
  steps: [],
  limits: { maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 },
  costUsd: 0,
  cost: { billing: 'subscription', billedUsd: 0, estimateUsd: 0, estimated: false },
  ...over,
});

// The bound List and the runtime's events, driven by the test.
function fakeApp() {
  const handlers: Record<string, ((p: unknown) => void)[]> = {};
  const lists: ((v: Job[]) => void)[] = [];
  window.go = {
    orchestrate: { OrchestrateBinding: { List: () => new Promise<Job[]>((ok) => lists.push(ok)) } },
    approvals: { Binding: { Pending: async () => [] } },
  } as never;
  window.runtime = {
    EventsOn: (name: string, cb: (p: unknown) => void) => {
      (handlers[name] ??= []).push(cb);
      return () => {};
    },
  } as never;
  return {
    emit: (name: string, p: unknown) => handlers[name]?.forEach((h) => h(p)),
    answerList: (i: number, v: Job[]) => lists[i](v),
    lists,
  };
}

afterEach(() => {
  delete window.go;
  delete window.runtime;
});

describe('JobsState', () => {
  it('keeps a status an event brought over an older list read that answers after it', async () => {
    const app = fakeApp();
    const s = new JobsState();
    const stop = s.start();
    app.answerList(0, [job({ state: 'running' })]);
    await vi.waitFor(() => expect(s.jobs.length).toBe(1));

    // A read of the list goes out while the job is between two updates…
    const read = s.load();
    // …the job's last change arrives as an event…
    app.emit('orchestrate:changed', job({ state: 'stopped', error: 'stopped: spend limit $0.01 reached ($0.05 spent)' }));
    // …and then the read answers with what it saw before.
    app.answerList(1, [job({ state: 'failed', error: '1 of 2 runs did not finish' })]);
    await read;
    expect(s.jobs[0].state).toBe('stopped');
    expect(s.jobs[0].error).toContain('spend limit');
    stop();
  });

  it('never takes an ended job back to running from a late event', async () => {
    const app = fakeApp();
    const s = new JobsState();
    const stop = s.start();
    app.answerList(0, [job({ state: 'done', endedAt: 2 })]);
    await vi.waitFor(() => expect(s.jobs[0]?.state).toBe('done'));
    app.emit('orchestrate:changed', job({ state: 'running' }));
    expect(s.jobs[0].state).toBe('done');
    stop();
  });
});
