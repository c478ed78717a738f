// The Orchestration screen's state: the jobs, kept current from the
// binding's change event and each child run's live progress lines.
import { orchestrateApi, type Job, type JobKind } from './api/orchestrate';
import { message } from './api/pipeline';
import { on } from './events';
import { ApprovalsState } from './approvals.svelte';
import { jobShownState, shownState } from './orchestration';

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
  // Each event's status is stamped; a read of the list that went out
  // before a job's event does not overwrite what the event brought.
  private tick = 0;
  private stamps = new Map<string, number>();

  /** start loads the jobs and follows them; returns the stop function. */
  start(): () => void {
    void this.load();
    const offs = [
      this.approvals.start(),
      // A job we show is updated in place at once; the read of the list
      // that follows a burst settles events that crossed on the way.
      on('orchestrate:changed', (st) => {
        if (this.jobs.some((j) => j.id === st.id)) {
          this.stamps.set(st.id, ++this.tick);
          this.put(st);
        }
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
    const asked = this.tick;
    try {
      const list = await orchestrateApi.list();
      let stale = false;
      this.jobs = (list ?? [])
        .map((j) => {
          const mine = this.jobs.find((x) => x.id === j.id);
          if (mine && (this.stamps.get(j.id) ?? 0) > asked) {
            stale = true;
            return mine;
          }
          return normal(j);
        })
        .sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0));
      if (stale) this.soon(); // read again once the events are quiet
      this.error = '';
    } catch (e) {
      this.error = message(e);
    } finally {
      this.loaded = true;
    }
  }

  /** fetch reads one job that is not in the list yet (a link from the board); it returns why not when it cannot. */
  async fetch(id: string): Promise<string> {
    try {
      this.put(await orchestrateApi.get(id));
      return '';
    } catch (e) {
      return message(e);
    }
  }

  /** put records a job the backend just returned (a start or a cancel). */
  put(job: Job) {
    job = normal(job);
    const i = this.jobs.findIndex((j) => j.id === job.id);
    // An ended job stays ended: an event that crossed its end is older.
    if (i >= 0 && this.jobs[i].endedAt && !job.endedAt) return;
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
    return shownState(c.state, !!this.waitsFor(c));
  }

  /** jobState is a job's state with Needs you while one of its runs waits for the person. */
  jobState(j: Job): string {
    return jobShownState(j.state, j.steps.map((c) => this.childState(c)));
  }

  /** progress is the line to show for a child: the live one, else the stored one. */
  progress(c: { runId?: string; progress?: string }): string {
    return (c.runId && this.live[c.runId]) || c.progress || '';
  }
}

/** StartRow is one task of the Start form (a fleet's task, the loop's, a graph's step). */
export interface StartRow { role: string; model: string; prompt: string }
export interface StartStepRow extends StartRow { id: string; dependsOn: string[] }

/** emptyStartDraft is a new Start form: two Workers side by side, a Researcher before a Worker. */
export function emptyStartDraft() {
  return {
    kind: 'fleet' as JobKind,
    folder: '',
    fleet: [{ role: 'Worker', model: '', prompt: '' }, { role: 'Worker', model: '', prompt: '' }] as StartRow[],
    loop: { role: 'Worker', model: '', prompt: '', until: '', count: '', max: '' },
    title: '',
    graphTask: '',
    steps: [
      { id: 's1', role: 'Researcher', model: '', prompt: '', dependsOn: [] },
      { id: 's2', role: 'Worker', model: '', prompt: '', dependsOn: ['s1'] },
    ] as StartStepRow[],
    limits: { minutes: '', spend: '', concurrency: '' },
  };
}

// The Start form's draft lives here rather than in the form, which is
// unmounted whenever the person opens another screen: what they typed is
// still there when they come back, until the job starts.
export const startDraft = $state({ open: false, fields: emptyStartDraft() });
