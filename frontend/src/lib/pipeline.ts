// Pure logic of the pipeline screens: reading progress lines, following a
// live run from its events, the model picker's rows, and the small
// formatting the run cards share. No Svelte, no Wails: unit-tested.
import { costLabel, type Cost } from './cost';
import type { ModelGroup, ModelOption, Run, RunEvent, RunState, Usage } from './api/pipeline';

export type StepKind = 'tool' | 'shell' | 'thinking' | 'edit' | 'failed' | 'error' | 'note';

/**
 * Step is one progress line split for display. head + sep + detail is the
 * line exactly as the backend wrote it ("Using memory_search — {…}"), so
 * what the user reads and copies is the spec's text.
 */
export interface Step {
  kind: StepKind;
  head: string;
  sep: string;
  detail: string;
  tool?: string;
}

const SEP = ' — ';

/** parseProgress splits a progress line into its parts (see Step). */
export function parseProgress(line: string): Step {
  let m = /^Using (\S+)( — )([\s\S]*)$/.exec(line);
  if (m) {
    return { kind: m[1] === 'shell' || m[1] === 'Bash' ? 'shell' : 'tool', head: 'Using ' + m[1], sep: SEP, detail: m[3], tool: m[1] };
  }
  m = /^Using (\S+?)…$/.exec(line);
  if (m) return { kind: 'tool', head: line, sep: '', detail: '', tool: m[1] };
  m = /^(Thinking:)( )([\s\S]*)$/.exec(line);
  if (m) return { kind: 'thinking', head: m[1], sep: m[2], detail: m[3] };
  m = /^(Edited)( )(.+)$/.exec(line);
  if (m) return { kind: 'edit', head: m[1], sep: m[2], detail: m[3] };
  m = /^(Codex:)( )([\s\S]*)$/.exec(line);
  if (m) return { kind: 'error', head: m[1], sep: m[2], detail: m[3] };
  m = /^(\S+ failed:)( )([\s\S]*)$/.exec(line);
  if (m) return { kind: 'failed', head: m[1], sep: m[2], detail: m[3] };
  return { kind: 'note', head: line, sep: '', detail: '' };
}

/** One entry of a run's live timeline. */
export interface LiveItem {
  kind: 'step' | 'text' | 'raw' | 'error';
  text: string;
}

/** LiveRun is what the Chat screen shows of a run while it works. */
export interface LiveRun {
  runId: string;
  items: LiveItem[];
  /** streaming is answer text arriving token by token (Claude). */
  streaming: string;
  ended: boolean;
  state?: RunState;
  error?: string;
}

/** inProgress: the run has not ended — it is working, or frozen by Pause. */
export function inProgress(s: RunState | string | undefined): boolean {
  return s === 'running' || s === 'paused';
}

/**
 * runPhase is the state a run card shows: the backend's state while the
 * run is in progress (running or paused), and once its end event arrived
 * the state it ended in (the run itself is re-read just after).
 */
export function runPhase(run: Pick<Run, 'state'>, live?: Pick<LiveRun, 'ended' | 'state'>): RunState {
  if (inProgress(run.state) && live?.ended && live.state) return live.state;
  return run.state;
}

/** composerPlaceholder is the task box's hint while the chat's run (if any) is in the state given. */
export function composerPlaceholder(active: RunState | undefined, who: string): string {
  if (active === 'paused') return 'Paused — resume to continue';
  if (active) return 'The run is going… you can write the next task meanwhile';
  return `Give the ${who} a task`;
}

/** liveFromRun starts a timeline from a run read from the backend. */
export function liveFromRun(r: Run): LiveRun {
  return {
    runId: r.id,
    items: (r.progress ?? []).map((text) => ({ kind: 'step', text })),
    streaming: '',
    ended: !inProgress(r.state),
    state: r.state,
    error: r.error,
  };
}

/** applyRunEvent folds one pipeline:run event into the timeline (in place). */
export function applyRunEvent(live: LiveRun, ev: RunEvent): LiveRun {
  if (ev.runId !== live.runId) return live;
  switch (ev.kind) {
    case 'progress':
      live.items.push({ kind: 'step', text: ev.text });
      break;
    case 'error':
      live.items.push({ kind: 'error', text: ev.text });
      break;
    case 'raw':
      live.items.push({ kind: 'raw', text: ev.text });
      break;
    case 'partial':
      live.streaming += ev.text;
      break;
    case 'text':
      // The whole message replaces what streamed of it.
      live.streaming = '';
      if (ev.text.trim()) live.items.push({ kind: 'text', text: ev.text });
      break;
    case 'end':
      live.ended = true;
      live.streaming = '';
      live.state = ev.state;
      if (ev.text) live.error = ev.text;
      break;
  }
  return live;
}

/** Row of the model picker: a group header or an option under it. */
export type PickerRow =
  | { type: 'group'; label: string; provider: string; note: string }
  | ({ type: 'option'; group: string } & ModelOption);

/** pickerRows lays the groups out as the picker lists them; empty groups are left out. */
export function pickerRows(groups: ModelGroup[]): PickerRow[] {
  const rows: PickerRow[] = [];
  for (const g of groups) {
    if (!g.models?.length) continue;
    rows.push({ type: 'group', label: g.label, provider: g.provider ?? '', note: g.note ?? '' });
    for (const m of g.models) rows.push({ type: 'option', group: g.label, ...m });
  }
  return rows;
}

/** findModel returns the option with id, and its group, if listed. */
export function findModel(groups: ModelGroup[], id: string): { group: ModelGroup; option: ModelOption } | null {
  for (const group of groups) {
    const option = group.models?.find((m) => m.id === id);
    if (option) return { group, option };
  }
  return null;
}

/** nextEnabled moves through the options for arrow keys, skipping unavailable ones. */
export function nextEnabled(rows: PickerRow[], from: number, step: 1 | -1): number {
  const n = rows.length;
  for (let i = 1; i <= n; i++) {
    const j = (((from + step * i) % n) + n) % n;
    const r = rows[j];
    if (r.type === 'option' && r.available) return j;
  }
  return from;
}

const stateLabels: Record<RunState, string> = {
  running: 'Running',
  needs_you: 'Needs you',
  paused: 'Paused',
  idle: 'Idle',
  done: 'Done',
  failed: 'Failed',
};

/** stateLabel is the Sessions board column name of a state. */
export function stateLabel(s: RunState | string): string {
  return stateLabels[s as RunState] ?? s;
}

const num = new Intl.NumberFormat('en-US');

/** usageLine is the run footer: context and output tokens, and the cost in the words of lib/cost.ts. */
export function usageLine(u: Usage | undefined, cost: Partial<Cost> | undefined): string {
  const parts: string[] = [];
  if (u && (u.contextTokens || u.outputTokens)) {
    parts.push(`context ${num.format(u.contextTokens)} tokens`, `output ${num.format(u.outputTokens)} tokens`);
  }
  parts.push(costLabel(cost));
  return parts.join(' · ');
}

/** duration formats the time between two epoch-ms times: "850 ms", "12 s", "3 min 4 s"; "" while it runs (end 0). */
export function duration(start: number, end: number): string {
  const ms = end - start;
  if (!start || !end || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** prettyArgs shows a tool call's arguments for the approval prompt. */
export function prettyArgs(args: unknown): string {
  if (args === null || args === undefined) return '{}';
  if (typeof args === 'string') {
    try {
      return JSON.stringify(JSON.parse(args), null, 2);
    } catch {
      return args;
    }
  }
  return JSON.stringify(args, null, 2);
}

/** shortPath shows the end of a long folder path. */
export function shortPath(p: string, max = 48): string {
  if (p.length <= max) return p;
  return '…' + p.slice(p.length - max + 1);
}

/**
 * repeatsNotice: the error only says again what a setup notice on screen
 * already says with the way there (no Local Folder, no model for the
 * Worker), so the screen says what to do once.
 */
export function repeatsNotice(error: string, notice: { noFolder: boolean; noModel: boolean }): boolean {
  return (notice.noFolder && error.includes('Settings → Local Folders')) || (notice.noModel && error.includes('Pipeline → Pipeline Roles'));
}

/** setupNeeds is what the chat's setup notice says is missing before a task can run. */
export function setupNeeds(o: { folder: string; loaded: boolean; agentModel: string; workerModel: string | null }): { noFolder: boolean; noModel: boolean } {
  return { noFolder: !o.folder && o.loaded, noModel: !o.agentModel && o.workerModel !== null && !o.workerModel };
}
