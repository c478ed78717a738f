import { boardApi, type BoardCard, type Column, type PaneState } from './api/board';
import { terminalApi } from './api/terminal';
import { on } from './events';
import { bound } from './wails';
import { applyFilter, byColumn, countNeedsYou, filterLabel, isMac, needsYou, nextNeedingYou, noFilter, type Filter } from './sessions';

/** openPane shows the Terminal screen on a pane (prompt still showing). */
export function openPane(id: string) {
  const target = '#/terminal?pane=' + encodeURIComponent(id);
  // The same hash again fires no hashchange: the user may have picked
  // another pane in the rail since.
  if (window.location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else window.location.hash = target;
}

/** PaneStates keeps every pane's detected state for the rail, jumps to
 * the next pane that needs you (a shortcut) and handles notification clicks.
 * One instance for the whole app, started from App.svelte. */
export class PaneStates {
  states = $state<Record<string, PaneState>>({});
  /** The pane the Terminal screen shows (set by it); Mod+. starts after it. */
  selected = $state<string | null>(null);
  readonly mac = isMac();

  start(): () => void {
    if (!bound('board', 'Service')) return () => {};
    boardApi
      .paneStates()
      .then((list) => {
        const next: Record<string, PaneState> = {};
        for (const s of list) next[s.id] = s;
        this.states = { ...next, ...this.states };
      })
      .catch(() => {});
    const offs = [
      on('panes:state', (s) => (this.states = { ...this.states, [s.id]: s })),
      on('panes:focus', (id) => openPane(id)),
      on('panes:changed', () => this.prune()),
    ];
    // Its key (Ctrl+. / ⌘. unless changed) is a shortcut: App.svelte.
    return () => offs.forEach((off) => off());
  }

  /** prune forgets the states of panes that are gone. A state that came
   * while the list was on its way is kept: the list may have been made
   * before that pane existed, and its first state (the agent's name) may
   * be the only one it sends for a long while. A list that fails keeps
   * everything. */
  async prune() {
    const before = this.states;
    const list = await terminalApi.list().catch(() => null);
    if (!list) return;
    const ids = new Set(list.map((p) => p.id));
    const next = { ...this.states };
    let gone = false;
    for (const [id, s] of Object.entries(before)) {
      if (!ids.has(id) && next[id] === s) {
        delete next[id];
        gone = true;
      }
    }
    if (gone) this.states = next;
  }

  /** jump opens the next pane that needs the user; false when none does. */
  async jump(): Promise<boolean> {
    const order = (await terminalApi.list().catch(() => [])).map((p) => p.id);
    const id = nextNeedingYou(order, this.states, this.selected);
    if (id) openPane(id);
    return id !== null;
  }

  waiting(): number {
    return Object.values(this.states).filter(needsYou).length;
  }
}

export const paneStates = new PaneStates();

/** NeedsYouCount is the sidebar badge: how many sessions on the board need
 * the user (terminal prompts, chats asking, runs waiting for an approval).
 * Started by the sidebar, so it counts on every screen. */
export class NeedsYouCount {
  count = $state(0);

  start(): () => void {
    if (!bound('board', 'Service')) return () => {};
    const set = (cards: BoardCard[] | null) => (this.count = countNeedsYou(cards ?? []));
    boardApi.cards().then(set, () => {});
    return on('board:changed', set);
  }
}

export const needsYouCount = new NeedsYouCount();

/** SummaryView is the summary viewer's content: a Done summary's Markdown. */
export interface SummaryView {
  path: string;
  markdown: string;
  error: string;
}

/** BoardState is the Sessions screen: cards, filter, the drag rules' answers. */
export class BoardState {
  cards = $state<BoardCard[]>([]);
  filter = $state<Filter>(noFilter());
  /** The refusal of the last drop, shown as is. */
  refusal = $state('');
  /** A card waiting for the user's "End session" confirmation. */
  confirming = $state<BoardCard | null>(null);
  notice = $state('');
  /** The summary the notice is about (its "Open summary" button). */
  saved = $state('');
  /** The card the notice is about (its "Open in Knowledge bases" link). */
  savedKey = $state('');
  /** The summary open in the viewer. */
  viewing = $state<SummaryView | null>(null);
  error = $state('');
  busy = $state(false);
  /** Broken detection-rule overrides (ignored; the bundled rules are in use). */
  ruleProblems = $state<string[]>([]);

  visible = $derived(applyFilter(this.cards, this.filter));
  columns = $derived(byColumn(this.visible));
  filterLabel = $derived(filterLabel(this.filter));

  start(): () => void {
    this.refresh();
    boardApi
      .ruleProblems()
      .then((ps) => (this.ruleProblems = ps ?? []))
      .catch(() => {});
    return on('board:changed', (cards) => (this.cards = cards ?? []));
  }

  async refresh() {
    try {
      this.cards = await boardApi.cards();
    } catch (e) {
      this.error = String(e);
    }
  }

  /** drop asks the backend's rules; only Idle → Done opens the confirmation. */
  async drop(key: string, column: Column) {
    this.refusal = '';
    this.notice = '';
    this.saved = '';
    const card = this.cards.find((c) => c.key === key);
    if (!card) return;
    try {
      const r = await boardApi.drop(key, column);
      if (r.allowed) this.confirming = card;
      else if (r.message) this.refusal = r.message;
    } catch (e) {
      this.refusal = String(e);
    }
  }

  /** pause freezes a session (Pause on its card); resume continues it. A
   * refusal (ended, not available) is shown like a refused drop. */
  async pause(key: string) {
    await this.act(() => boardApi.pause(key));
  }

  async resume(key: string) {
    await this.act(() => boardApi.resume(key));
  }

  /** clear takes a finished card (Done or Failed) off the board. */
  async clear(key: string) {
    await this.act(() => boardApi.clear(key));
  }

  /** clearAll clears every card of a finished column. */
  async clearAll(column: Column) {
    const keys = this.columns[column].map((c) => c.key);
    await this.act(async () => {
      for (const k of keys) await boardApi.clear(k);
    });
  }

  /** openSummary shows a Done summary in the viewer. */
  async openSummary(path: string) {
    this.viewing = { path, markdown: '', error: '' };
    try {
      const markdown = await boardApi.readSummary(path);
      if (this.viewing?.path === path) this.viewing = { path, markdown, error: '' };
    } catch (e) {
      if (this.viewing?.path === path) this.viewing = { path, markdown: '', error: e instanceof Error ? e.message : String(e) };
    }
  }

  private async act(f: () => Promise<void>) {
    this.refusal = '';
    this.notice = '';
    this.saved = '';
    try {
      await f();
      await this.refresh();
    } catch (e) {
      this.refusal = e instanceof Error ? e.message : String(e);
    }
  }

  async confirmEnd() {
    const card = this.confirming;
    if (!card) return;
    this.busy = true;
    try {
      const path = await boardApi.end(card.key);
      this.notice = `Summary saved to ${path}`;
      this.saved = path;
      this.savedKey = card.key;
      this.confirming = null;
      await this.refresh();
    } catch (e) {
      this.confirming = null;
      this.refusal = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }
}
