// Pure rules of the Sessions board and the Terminal rail's state labels
// (docs/reference.md §1), kept apart from the Svelte state so vitest can check them.
import type { BoardCard, Column, Kind, PaneState } from './api/board';

export const columns: { id: Column; label: string }[] = [
  { id: 'running', label: 'Running' },
  { id: 'needs_you', label: 'Needs you' },
  { id: 'paused', label: 'Paused' },
  { id: 'idle', label: 'Idle' },
  { id: 'done', label: 'Done' },
  { id: 'failed', label: 'Failed' },
];

export const kinds: { id: Kind; label: string }[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'agent', label: 'Agent' },
  { id: 'team', label: 'Team' },
  { id: 'loop', label: 'Loop' },
  { id: 'terminal', label: 'Terminal' },
];

export type Period = 'any' | 'today' | 'week' | 'month';
export const periods: { id: Period; label: string }[] = [
  { id: 'any', label: 'Any time' },
  { id: 'today', label: 'Today' },
  { id: 'week', label: 'Last 7 days' },
  { id: 'month', label: 'Last 30 days' },
];

export interface Filter {
  needsMe: boolean;
  kinds: Kind[]; // empty: every kind
  period: Period;
}

export const noFilter = (): Filter => ({ needsMe: false, kinds: [], period: 'any' });

export function filterOn(f: Filter): boolean {
  return f.needsMe || f.kinds.length > 0 || f.period !== 'any';
}

/** filterLabel is the Filter button's label: "Filtered" while a filter is on. */
export function filterLabel(f: Filter): string {
  return filterOn(f) ? 'Filtered' : 'Filter';
}

function periodStart(p: Period, now: Date): number {
  const day = 24 * 3600 * 1000;
  switch (p) {
    case 'today':
      return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    case 'week':
      return now.getTime() - 7 * day;
    case 'month':
      return now.getTime() - 30 * day;
  }
  return 0;
}

/** applyFilter keeps the cards the filter lets through; the period counts
 * a session active in it (its last change falls inside). */
export function applyFilter(cards: BoardCard[], f: Filter, now = new Date()): BoardCard[] {
  const from = periodStart(f.period, now);
  return cards.filter(
    (c) =>
      (!f.needsMe || c.state === 'needs_you') &&
      (f.kinds.length === 0 || f.kinds.includes(c.kind)) &&
      Math.max(c.updatedAt, c.startedAt) >= from,
  );
}

export function byColumn(cards: BoardCard[]): Record<Column, BoardCard[]> {
  const out = { running: [], needs_you: [], paused: [], idle: [], done: [], failed: [] } as Record<Column, BoardCard[]>;
  for (const c of cards) (out[c.state] ?? out.idle).push(c);
  return out;
}

/** countNeedsYou is the sidebar badge's number. */
export function countNeedsYou(cards: BoardCard[]): number {
  return cards.filter((c) => c.state === 'needs_you').length;
}

/** needsYouLabel is how the sidebar's Sessions item is announced with its badge. */
export function needsYouLabel(label: string, n: number): string {
  return n > 0 ? `${label}, ${n} need${n === 1 ? 's' : ''} you` : label;
}

export const kindLabel = (k: Kind) => kinds.find((x) => x.id === k)?.label ?? k;

/** needsYou: the pane shows a prompt and is not paused (a frozen pane
 * cannot take an answer; it waits for Resume, not for the user's decision). */
export function needsYou(st: PaneState | undefined): boolean {
  return st?.state === 'blocked' && !st.paused;
}

/** cardAction is the pause control a board card offers: Pause on Running
 * and Needs you cards whose session can be frozen, Resume on Paused ones. */
/** summaryHref opens a Done card's summary in Knowledge bases (its "Session summaries" article), or "" before it was saved there. */
export function summaryHref(c: Pick<BoardCard, 'summaryKb' | 'summaryArticle'> | undefined): string {
  if (!c?.summaryKb || !c.summaryArticle) return '';
  return `#/knowledge?kb=${encodeURIComponent(c.summaryKb)}&article=${encodeURIComponent(c.summaryArticle)}`;
}

export function cardAction(c: BoardCard): 'pause' | 'resume' | null {
  if (c.state === 'paused') return c.canPause ? 'resume' : null;
  if ((c.state === 'running' || c.state === 'needs_you') && c.canPause) return 'pause';
  return null;
}

/** nextNeedingYou picks the pane to jump to: the first blocked pane after
 * the current one in rail order, wrapping around; null when none waits. */
export function nextNeedingYou(order: string[], states: Record<string, PaneState>, current: string | null): string | null {
  const waiting = order.filter((id) => needsYou(states[id]));
  if (waiting.length === 0) return null;
  const at = current ? order.indexOf(current) : -1;
  for (const id of waiting) if (order.indexOf(id) > at) return id;
  return waiting[0];
}

export function isMac(): boolean {
  const p = (navigator as any).userAgentData?.platform ?? navigator.platform ?? '';
  return /mac/i.test(p) || /Mac OS X/.test(navigator.userAgent);
}

/** jumpHint is the status bar's hint: ⌘. on Mac, Ctrl+. elsewhere. */
export function jumpHint(mac: boolean): string {
  return `${mac ? '⌘.' : 'Ctrl+.'} to jump to what needs you`;
}

/** isJumpKey is Mod+. (⌘ on Mac, Ctrl elsewhere). */
export function isJumpKey(e: { key: string; code?: string; metaKey: boolean; ctrlKey: boolean; altKey: boolean; shiftKey: boolean }, mac: boolean): boolean {
  const mod = mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return mod && !e.altKey && !e.shiftKey && (e.key === '.' || e.code === 'Period');
}

/** ago is a short relative time for a card ("3 min"). */
export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86400)} d`;
}
