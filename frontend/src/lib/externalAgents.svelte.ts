import { inventoryApi, type AppInfo, type Detail, type Plan, type Row, type Session, type TextStatus } from './api/inventory';
import { on } from './events';
import { chips, filterSessions, haystack, minTextQuery, ownRunCount, rememberedView } from './externalAgents';

function message(e: unknown): string {
  const s = e instanceof Error ? e.message : String(e);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** ExternalAgentsState is the list side of the screen: every session, the
 * apps with their counts, the search and the app filter, the selection. */
export class ExternalAgentsState {
  sessions = $state.raw<Session[]>([]);
  apps = $state.raw<AppInfo[]>([]);
  // The search, app filter and selection outlive the screen (rememberedView).
  #kept = rememberedView();
  #query = $state(this.#kept.query);
  #app = $state(this.#kept.app);
  #selectedKey = $state<string | null>(this.#kept.selectedKey);
  #showRuns = $state(this.#kept.showRuns);
  /** showRuns shows osFoundry's own runs (hidden until the person asks). */
  get showRuns() {
    return this.#showRuns;
  }
  set showRuns(v: boolean) {
    this.#showRuns = this.#kept.showRuns = v;
    // An app whose sessions are all the app's runs loses its chip.
    if (this.app && !this.chips.some((c) => c.app === this.app)) this.app = '';
  }
  get query() {
    return this.#query;
  }
  set query(v: string) {
    this.#query = this.#kept.query = v;
    this.#searchSoon();
  }
  get app() {
    return this.#app;
  }
  set app(v: string) {
    this.#app = this.#kept.app = v;
  }
  get selectedKey() {
    return this.#selectedKey;
  }
  set selectedKey(v: string | null) {
    this.#selectedKey = this.#kept.selectedKey = v;
  }
  loaded = $state(false);
  error = $state('');

  /** textStatus: "Search in conversations" and its index's progress. */
  textStatus = $state.raw<TextStatus | null>(null);
  textOn = $derived(!!this.textStatus?.on);
  /** textHits are the sessions whose conversation matched the query, with
   * the words around the match. */
  textHits = $state.raw<ReadonlySet<string>>(new Set());
  textSnippets = $state.raw<ReadonlyMap<string, string>>(new Map());
  #searchTimer: ReturnType<typeof setTimeout> | undefined;
  visible = $derived(filterSessions(this.sessions, this.query, this.app, haystack, { showRuns: this.showRuns, textHits: this.textHits }));
  chips = $derived(chips(this.apps, this.showRuns));
  ownRuns = $derived(ownRunCount(this.apps));
  /** hiddenMatches is how many of the app's own runs the search would
   * also list if they were shown. */
  hiddenMatches = $derived(
    this.showRuns ? 0 : filterSessions(this.sessions, this.query, this.app, haystack, { showRuns: true, textHits: this.textHits }).length - this.visible.length,
  );
  /** listed is how many sessions the list holds before the search and chip. */
  listed = $derived(this.showRuns ? this.sessions.length : this.sessions.length - this.ownRuns);
  selected = $derived(this.sessions.find((s) => s.key === this.selectedKey) ?? null);

  private inFlight = false;
  private again = false;

  /** start loads the list and follows live updates; returns the stop function. */
  start(): () => void {
    this.load();
    this.loadText();
    const offList = on('inventory:changed', () => this.load());
    // The index grows in the background: a query already typed finds more.
    const offText = on('inventory:textindex', (st) => {
      this.textStatus = st;
      this.#searchSoon();
    });
    return () => {
      offList();
      offText();
      clearTimeout(this.#searchTimer);
    };
  }

  async loadText() {
    try {
      this.textStatus = await inventoryApi.textSearch();
      this.#searchSoon();
    } catch (e) {
      this.error = message(e);
    }
  }

  /** setTextSearch turns "search in conversations" on or off. */
  async setTextSearch(on: boolean) {
    try {
      this.textStatus = await inventoryApi.setTextSearch(on);
      this.error = '';
    } catch (e) {
      this.error = message(e);
    }
    this.#searchSoon();
  }

  #searchSoon() {
    clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => this.searchText(), 150);
  }

  /** searchText asks the conversation index for the current query. */
  async searchText() {
    const q = this.query.trim();
    if (!this.textOn || [...q].length < minTextQuery) {
      if (this.textHits.size) (this.textHits = new Set()), (this.textSnippets = new Map());
      return;
    }
    try {
      const hits = (await inventoryApi.searchText(q)) ?? [];
      if (this.query.trim() !== q) return; // a newer query is on its way
      this.textHits = new Set(hits.map((h) => h.key));
      this.textSnippets = new Map(hits.map((h) => [h.key, h.snippet]));
    } catch (e) {
      this.error = message(e);
    }
  }

  /** load re-reads the list. Updates arriving while a load runs (an agent
   * appending to its transcript many times a second) coalesce into one
   * more load shortly after. */
  async load() {
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    try {
      const [sessions, apps] = await Promise.all([inventoryApi.sessions('', ''), inventoryApi.apps()]);
      this.sessions = sessions ?? [];
      this.apps = apps ?? [];
      if (this.app && !this.chips.some((c) => c.app === this.app)) this.app = '';
      this.error = '';
    } catch (e) {
      this.error = message(e);
    } finally {
      this.loaded = true;
      this.inFlight = false;
    }
    if (this.again) {
      this.again = false;
      setTimeout(() => this.load(), 400);
    }
  }

  async setEnabled(app: string, enabled: boolean) {
    try {
      await inventoryApi.setAppEnabled(app, enabled);
    } catch (e) {
      this.error = message(e);
    }
    await this.load();
  }

  /** move selects the next (+1) or previous (-1) visible session. */
  move(step: number): number {
    const list = this.visible;
    if (!list.length) return -1;
    const i = list.findIndex((s) => s.key === this.selectedKey);
    const j = i < 0 ? 0 : Math.min(list.length - 1, Math.max(0, i + step));
    this.selectedKey = list[j].key;
    return j;
  }
}

/** pageSize is how many conversation rows one Transcript call returns. */
export const pageSize = 200;

/** SessionView is the detail pane of one session: metadata, the relaunch
 * plan with the user's ticks, and the conversation loaded page by page. */
export class SessionView {
  readonly key: string;
  detail = $state.raw<Detail | null>(null);
  detailError = $state('');
  plan = $state.raw<Plan | null>(null);
  planError = $state('');
  keep = $state<string[]>([]);
  rows = $state.raw<Row[]>([]);
  done = $state(false);
  paging = $state(false);
  pageError = $state('');
  question = $state('');
  opening = $state(false);
  openError = $state('');
  private next = 0;
  private alive = true;

  constructor(key: string) {
    this.key = key;
  }

  /** start loads the pane; the returned function stops late answers. */
  start(): () => void {
    this.loadDetail();
    this.loadPlan();
    this.more();
    return () => (this.alive = false);
  }

  async loadDetail() {
    try {
      const d = await inventoryApi.detail(this.key);
      if (this.alive) (this.detail = d), (this.detailError = '');
    } catch (e) {
      if (this.alive) this.detailError = message(e);
    }
  }

  async loadPlan() {
    try {
      const p = await inventoryApi.plan(this.key, this.keep);
      if (this.alive) (this.plan = p), (this.planError = '');
    } catch (e) {
      if (this.alive) (this.plan = null), (this.planError = message(e));
    }
  }

  /** more loads the next page of the conversation, once at a time. */
  async more() {
    if (this.done || this.paging || this.pageError || !this.alive) return;
    this.paging = true;
    try {
      const page = await inventoryApi.transcript(this.key, this.next, pageSize);
      if (!this.alive) return;
      const rows = page.rows ?? [];
      if (rows.length) this.rows = this.rows.concat(rows);
      this.next = page.next;
      this.done = page.done;
    } catch (e) {
      if (this.alive) this.pageError = message(e);
    } finally {
      this.paging = false;
    }
  }

  /** changed follows the session's file after a live update: new rows
   * appended to a transcript are read from where the last page ended. */
  changed() {
    this.loadDetail();
    this.loadPlan();
    if (this.done) {
      this.done = false;
      this.more();
    }
  }

  toggleKeep(label: string, on: boolean) {
    this.keep = on ? [...new Set([...this.keep, label])] : this.keep.filter((k) => k !== label);
    this.loadPlan();
  }

  /** open runs "Open in Terminal"; it returns the new pane's id, or null
   * when the branch question is shown or the launch was refused. */
  async open(openAnyway = false): Promise<string | null> {
    this.opening = true;
    this.openError = '';
    try {
      const res = await inventoryApi.openInTerminal({ ref: this.key, keep: this.keep, openAnyway });
      if (res.ask && !openAnyway) {
        this.question = res.question ?? '';
        return null;
      }
      this.question = '';
      return res.paneId ?? null;
    } catch (e) {
      this.openError = message(e);
      return null;
    } finally {
      this.opening = false;
    }
  }
}

/** openPaneHash is where "Open in Terminal" takes the user. */
export function openPaneHash(paneId: string): string {
  return '#/terminal?pane=' + encodeURIComponent(paneId);
}
