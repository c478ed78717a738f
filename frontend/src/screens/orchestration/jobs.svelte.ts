// The Orchestration screen's state: the jobs, kept current from the
// binding's change event and each child run's live progress lines.
import { orchestrateApi, type Job } from '../../lib/api/orchestrate';
import { message } from '../../lib/api/pipeline';
import { on } from '../../lib/events';
import { ApprovalsState } from '../../lib/approvals.svelte';
import { ended } from './logic';

/** normal fills what Go sends as null: a loop has no steps until its first iteration. */
export function normal(j: Job): Job {
  return { ...j, steps: j.steps ?? [], limits: j.limits ?? { maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 } };
}

export class JobsState {
  jobs = $state<Job[]>([]);
  loaded = $state(false);
  error = $state('');
  /** The newest progress line of each child run, by run id, while it works. */
  live = $state<Record<string, string>>({});

  /** Tool calls waiting for the person's Approve (answered in the dialog over every screen). */
  private approvals = new ApprovalsState();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** start loads the jobs and follows them; returns the stop function. */
  start(): () => void {
    void this.load();
    const offs = [
      this.approvals.start(),
      // A job we show is updated in place at once; the read of the list
      // that follows a burst settles events that crossed on the way.
      on('orchestrate:changed', (st) => {
        if (this.jobs.some((j) => j.id === st.id)) this.put(st);
        this.soon();
      }),
      on('pipeline:run', (ev) => {
        if (!this.jobs.some((j) => j.steps.some((c) => c.runId === ev.runId))) return;
        if (ev.kind === 'progress') this.live[ev.runId] = ev.text;
        if (ev.kind === 'end') this.soon();
      }),
    ];
    return () => {
      offs.forEach((off) => off());
      clearTimeout(this.timer);
    };
  }

  // Changes come in bursts (every child's step); one reload covers them.
  private soon() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), 80);
  }

  async load() {
    try {
      const list = await orchestrateApi.list();
      this.jobs = (list ?? []).map(normal).sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
      this.error = '';
    } catch (e) {
      this.error = message(e);
    } finally {
      this.loaded = true;
    }
  }

  /** put records a job the backend just returned (a start or a cancel). */
  put(job: Job) {
    job = normal(job);
    const i = this.jobs.findIndex((j) => j.id === job.id);
    if (i >= 0) this.jobs[i] = job;
    else this.jobs = [job, ...this.jobs];
  }

  /** waitsFor names the tool a child's run waits to have approved ("" when none). */
  waitsFor(c: { runId?: string }): string {
    if (!c.runId) return '';
    return this.approvals.pending.find((r) => r.source === 'bridge:' + c.runId)?.tool ?? '';
  }

  /** childState is a child's state with Needs you while its run waits for an approval. */
  childState(c: { runId?: string; state: string }): string {
    return c.state === 'running' && this.waitsFor(c) ? 'needs_you' : c.state;
  }

  /** jobState is a job's state with Needs you while one of its runs waits for the person. */
  jobState(j: Job): string {
    return !ended(j.state) && j.steps.some((c) => this.childState(c) === 'needs_you') ? 'needs_you' : j.state;
  }

  /** progress is the line to show for a child: the live one, else the stored one. */
  progress(c: { runId?: string; progress?: string }): string {
    return (c.runId && this.live[c.runId]) || c.progress || '';
  }
}
