// Pure logic of the Orchestration screen: reading the limits the person
// typed, putting a graph's steps in the order they run, and the words the
// job and child cards show. No Svelte, no Wails: unit-tested.
import { sumCosts, type Cost } from './cost';

/** The limits as typed: "" means no limit of that kind. */
export interface LimitsInput {
  minutes: string;
  spend: string;
  concurrency: string;
}

/** Limits as the backend takes them; 0 means none. */
export interface ParsedLimits {
  maxSeconds: number;
  maxSpendUSD: number;
  concurrency: number;
}

/**
 * parseLimits reads the three limit fields. An empty field is no limit; a
 * field that is not a positive number is an error that says what to type.
 */
export function parseLimits(l: LimitsInput): { limits: ParsedLimits; error: string } {
  const limits: ParsedLimits = { maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 };
  const min = l.minutes.trim();
  if (min) {
    const n = Number(min);
    if (!Number.isFinite(n) || n <= 0) return { limits, error: 'Time limit: type the minutes as a number above 0 (e.g. 10), or leave it empty for no time limit.' };
    limits.maxSeconds = Math.round(n * 60);
  }
  const spend = l.spend.trim().replace(/^\$/, '');
  if (spend) {
    const n = Number(spend);
    if (!Number.isFinite(n) || n <= 0) return { limits, error: 'Spend limit: type dollars as a number above 0 (e.g. 0.50), or leave it empty for no spend limit.' };
    limits.maxSpendUSD = n;
  }
  const conc = l.concurrency.trim();
  if (conc) {
    const n = Number(conc);
    if (!Number.isInteger(n) || n < 1) return { limits, error: 'At once: type a whole number of runs (1 or more), or leave it empty to start them all together.' };
    limits.concurrency = n;
  }
  return { limits, error: '' };
}

/** money shows a cost in dollars: $0.0123 under a cent, $1.25 above. */
export function money(usd: number | undefined): string {
  const v = usd ?? 0;
  if (v === 0) return '$0.00';
  if (v < 0.01) return '$' + v.toFixed(4);
  return '$' + v.toFixed(2);
}

/** seconds as "45 s", "10 min", "1 h 30 min". */
export function span(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** limitsLine is the job's limits in one line ("No limits" when none is set). */
export function limitsLine(l: Partial<ParsedLimits> | undefined): string {
  const parts: string[] = [];
  if (l?.maxSeconds) parts.push(`time ${span(l.maxSeconds)}`);
  if (l?.maxSpendUSD) parts.push(`spend ${money(l.maxSpendUSD)}`);
  if (l?.concurrency) parts.push(`${l.concurrency} at once`);
  return parts.length ? 'Limits: ' + parts.join(' · ') : 'No limits';
}

/** One step of a graph as the form holds it. */
export interface StepInput {
  id: string;
  dependsOn: string[];
}

/**
 * graphOrder puts a graph's steps in the order they can run: each level
 * holds the steps whose dependencies are all in earlier levels (they run
 * side by side). A dependency on a missing step or a cycle is an error
 * that names the steps.
 */
export function graphOrder<T extends StepInput>(steps: T[]): { levels: T[][]; error: string } {
  const ids = new Set(steps.map((s) => s.id));
  for (const s of steps) {
    for (const d of s.dependsOn) {
      if (d === s.id) return { levels: [], error: `Step ${s.id} depends on itself: remove it from its own "after" list.` };
      if (!ids.has(d)) return { levels: [], error: `Step ${s.id} runs after ${d}, which is not a step: pick one of ${[...ids].join(', ')}.` };
    }
  }
  const placed = new Set<string>();
  const levels: T[][] = [];
  let left = steps;
  while (left.length) {
    const ready = left.filter((s) => s.dependsOn.every((d) => placed.has(d)));
    if (!ready.length) {
      return { levels, error: `Steps ${left.map((s) => s.id).join(', ')} wait for each other in a circle: remove one of their "after" links.` };
    }
    ready.forEach((s) => placed.add(s.id));
    levels.push(ready);
    left = left.filter((s) => !placed.has(s.id));
  }
  return { levels, error: '' };
}

/** nextStepId is the first free id of the form s1, s2, … */
export function nextStepId(steps: { id: string }[]): string {
  const used = new Set(steps.map((s) => s.id));
  for (let i = 1; ; i++) if (!used.has('s' + i)) return 's' + i;
}

/** removeStep drops a step and every "after" link to it. */
export function removeStep<T extends StepInput>(steps: T[], id: string): T[] {
  return steps.filter((s) => s.id !== id).map((s) => ({ ...s, dependsOn: s.dependsOn.filter((d) => d !== id) }));
}

const labels: Record<string, string> = {
  waiting: 'Waiting',
  running: 'Running',
  needs_you: 'Needs you',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
  stopped: 'Stopped',
};

/** stateLabel is a job's or child's state in words. */
export function stateLabel(s: string): string {
  return labels[s] ?? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
}

/** ended: the job or child will not change any more. */
export function ended(s: string): boolean {
  return s !== 'running' && s !== 'waiting' && s !== 'needs_you';
}

/** progressLine counts a job's children by state: "1 of 2 done · 1 running". */
export function progressLine(children: { state: string }[]): string {
  const n = children.length;
  if (!n) return 'No runs yet';
  const count = (s: string) => children.filter((c) => c.state === s).length;
  const parts = [`${count('done')} of ${n} done`];
  for (const s of ['needs_you', 'running', 'waiting', 'failed', 'cancelled', 'skipped', 'stopped']) {
    const k = count(s);
    if (k) parts.push(`${k} ${stateLabel(s).toLowerCase()}`);
  }
  return parts.join(' · ');
}

/** jobCost is the job's cost (its children's added up when the job has none yet), in lib/cost.ts's terms. */
export function jobCost(job: { cost?: Partial<Cost> | null; steps?: { cost?: Partial<Cost> | null }[] | null }): Partial<Cost> {
  return job.cost?.billing ? job.cost : sumCosts((job.steps ?? []).map((s) => s.cost));
}

/** kindLabel names a kind of job as the board does: a fleet is a Team. */
export function kindLabel(kind: string): string {
  return kind === 'fleet' ? 'Team' : kind === 'loop' ? 'Loop' : kind === 'graph' ? 'Graph' : kind;
}

/** jobTitle names a job: its own title, else its first task's first words. */
export function jobTitle(j: { kind: string; title?: string; steps: { task?: string }[] }): string {
  if (j.title?.trim()) return j.title.trim();
  const task = j.steps.find((c) => c.task?.trim())?.task ?? '';
  const words = task.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return `${kindLabel(j.kind)} without a title`;
  return words.length > 8 ? words.slice(0, 8).join(' ') + '…' : words.join(' ');
}

/** shownState is a child's state with Needs you while its run waits for an approval. */
export function shownState(state: string, waitsForApproval: boolean): string {
  return state === 'running' && waitsForApproval ? 'needs_you' : state;
}

/** jobShownState is a job's state with Needs you while it goes and one of its runs waits for the person. */
export function jobShownState(state: string, childStates: string[]): string {
  return !ended(state) && childStates.includes('needs_you') ? 'needs_you' : state;
}

/** elapsed says how long a job has been going ("going for 12 s") or took ("took 1 min 5 s"); "" without a start. */
export function elapsed(startedAt: number | undefined, endedAt: number | undefined, now: number): string {
  if (!startedAt) return '';
  const secs = Math.max(0, Math.round(((endedAt || now) - startedAt) / 1000));
  const m = Math.floor(secs / 60);
  const text = m ? `${m} min${secs % 60 ? ` ${secs % 60} s` : ''}` : `${secs} s`;
  return endedAt ? `took ${text}` : `going for ${text}`;
}
