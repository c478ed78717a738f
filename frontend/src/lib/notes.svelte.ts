// The Notes screen's state: the list (workspaces, projects, Notes) and the
// open Note with one sync state per editable tab. notes:changed keeps both
// current; an open editor follows without clobbering unsaved typing.
import { notesApi, type Note, type NoteInfo, type Overview, type Tab, type TabKind } from './api/notes';
import { teamApi } from './api/team';
import { on, type NotesChangedEvent } from './events';
import { sharedDrafts, type DraftStore } from './notes/drafts';
import { SheetTabState } from './notes/sheet.svelte';
import { TextTabState } from './notes/text.svelte';
import { errorText, placeName } from './place';

type Api = typeof notesApi;
/** TeamPlaces names the team workspace of each Synced project, by project id. */
type TeamPlaces = () => Promise<Record<string, string> | null>;

const message = errorText;

/** NoteEditor is one open Note. */
export class NoteEditor {
  note = $state<Note | null>(null);
  selected = $state('');
  error = $state('');
  // $state so views (the list's draft marks, the tab dots) follow tabs
  // that appear after the first render; the class instances stay unproxied.
  texts = $state<Record<string, TextTabState>>({});
  sheets = $state<Record<string, SheetTabState>>({});

  constructor(
    readonly noteId: string,
    private api: Api = notesApi,
    private drafts: DraftStore = sharedDrafts(),
  ) {}

  get version(): number {
    return this.note?.version ?? 0;
  }

  get tab(): Tab | undefined {
    return this.note?.tabs.find((t) => t.tab_id === this.selected) ?? this.note?.tabs[0];
  }

  /** saving: some tab is being saved. */
  get saving(): boolean {
    return [...Object.values(this.texts), ...Object.values(this.sheets)].some((s) => s.saving);
  }

  /** dirty: some tab holds unsaved changes or a conflict. */
  get dirty(): boolean {
    return [...Object.values(this.texts), ...Object.values(this.sheets)].some((s) => s.dirty || s.conflict);
  }

  async load(): Promise<void> {
    try {
      // Drafts kept by an earlier run are read before the tabs load them.
      const [n] = await Promise.all([this.api.get(this.noteId), this.drafts.ready()]);
      this.apply(n, true);
    } catch (e) {
      this.error = `Could not open this Note: ${message(e)}. Choose another Note on the left.`;
    }
  }

  /** draftArrived shows a draft the backend kept for one of this Note's tabs. */
  async draftArrived(noteId: string, tabId: string): Promise<void> {
    if (noteId !== this.noteId) return;
    const s = this.texts[tabId];
    const d = this.drafts.get(noteId, tabId);
    if (!s || d?.kind !== 'text') return;
    s.adoptDraft();
    // The replica puts the server's copy in place at the server's version,
    // which may be the very version of the person's own lost save that
    // this editor holds: go back to the draft's base version so that
    // notes:changed fetches it, and fetch now in case it is there already.
    if (this.note && this.note.version > d.baseVersion) this.note.version = d.baseVersion;
    try {
      const n = await this.api.get(this.noteId);
      const t = n.tabs.find((x) => x.tab_id === tabId);
      if (t && t.text !== d.mine) this.apply(n, false);
    } catch (e) {
      this.error = message(e);
    }
  }

  /** changed reacts to notes:changed: fetch only when the Note moved past what we hold. */
  async changed(ev: NotesChangedEvent): Promise<void> {
    if (ev.note_id !== this.noteId || ev.version <= this.version) return;
    try {
      const n = await this.api.get(this.noteId);
      if (n.version > this.version) this.apply(n, false);
    } catch (e) {
      this.error = message(e);
    }
  }

  private apply(n: Note, first: boolean) {
    for (const t of n.tabs) {
      if (t.kind === 'text') {
        let s = this.texts[t.tab_id];
        if (!s || first) {
          s = this.texts[t.tab_id] = new TextTabState(n.note_id, t.tab_id, this.drafts,
            (v, text) => this.api.saveText(n.note_id, t.tab_id, v, text), (p, x) => this.savedBy(t.tab_id, p, x));
          s.load(t.text ?? '', n.version);
        } else {
          s.server(t.text ?? '', n.version);
        }
      } else if (t.kind === 'sheet' && t.sheet) {
        let s = this.sheets[t.tab_id];
        if (!s || first) {
          s = this.sheets[t.tab_id] = new SheetTabState(n.note_id, t.tab_id, this.drafts,
            (v, sheet) => this.api.saveSheet(n.note_id, t.tab_id, v, sheet), (p, x) => this.savedBy(t.tab_id, p, x));
          s.load(t.sheet, n.version);
        } else {
          s.server(t.sheet, n.version);
        }
      }
    }
    this.note = n;
    if (!n.tabs.some((t) => t.tab_id === this.selected)) this.selected = n.tabs[0]?.tab_id ?? '';
  }

  /** savedBy: tab moved the Note prev → next; nothing else changed in between. */
  private savedBy(tabId: string, prev: number, next: number) {
    for (const [id, s] of [...Object.entries(this.texts), ...Object.entries(this.sheets)]) {
      if (id !== tabId) s.advance(prev, next);
    }
    if (this.note && next > this.note.version) this.note.version = next;
  }

  async addTab(kind: TabKind, title: string): Promise<boolean> {
    this.error = '';
    try {
      const r = await this.api.addTab(this.noteId, this.version, kind, title);
      if (!r.result.saved) {
        // Someone changed the Note first; adding a tab loses nothing, so
        // catch up and try once more against the new version.
        await this.changed({ note_id: this.noteId, version: r.result.version });
        const again = await this.api.addTab(this.noteId, this.version, kind, title);
        if (!again.result.saved) throw new Error('the note keeps changing; try again');
        await this.changed({ note_id: this.noteId, version: again.result.version });
        this.selected = again.tab.tab_id;
        return true;
      }
      await this.changed({ note_id: this.noteId, version: r.result.version });
      this.selected = r.tab.tab_id;
      return true;
    } catch (e) {
      this.error = `Could not add the tab: ${message(e)}`;
      return false;
    }
  }
}

/** NotesState is the screen: the list and the open Note. */
export class NotesState {
  overview = $state<Overview>({ workspaces: [], projects: [], notes: [] });
  editor = $state<NoteEditor | null>(null);
  error = $state('');
  loaded = $state(false);
  /** the team workspace's name of each Synced project (its Notes say so, on every desktop) */
  teamPlaces = $state<Record<string, string>>({});
  drafts: DraftStore;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private api: Api = notesApi,
    drafts: DraftStore = sharedDrafts(),
    private places: TeamPlaces = teamApi.teamPlaces,
  ) {
    this.drafts = drafts;
  }

  start(): () => void {
    this.refresh();
    const off = on('notes:changed', (ev) => {
      this.editor?.changed(ev);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh(), 150);
    });
    const offDraft = on('notes:draft', (d) => {
      this.drafts.adopt(d.owner_id, d.item_id, d.data);
      this.editor?.draftArrived(d.owner_id, d.item_id);
    });
    return () => {
      off();
      offDraft();
      clearTimeout(this.timer);
    };
  }

  async refresh() {
    try {
      // The list marks Notes with drafts: read them before it shows.
      const [o, places] = await Promise.all([this.api.overview(), this.places().catch(() => null), this.drafts.ready()]);
      this.overview = o;
      if (places) this.teamPlaces = places;
      this.error = '';
    } catch (e) {
      this.error = message(e);
    }
    this.loaded = true;
  }

  open(noteId: string) {
    if (this.editor?.noteId === noteId) return;
    const ed = new NoteEditor(noteId, this.api, this.drafts);
    this.editor = ed;
    ed.load();
  }

  close() {
    this.editor = null;
  }

  async create(workspace: string, project: string, title: string): Promise<Note | null> {
    try {
      const n = await this.api.create(workspace, project, title);
      await this.refresh();
      return n;
    } catch (e) {
      this.error = message(e);
      return null;
    }
  }

  async createProject(workspace: string, name: string): Promise<string | null> {
    try {
      const p = await this.api.createProject(workspace, name);
      await this.refresh();
      return p.id;
    } catch (e) {
      this.error = message(e);
      return null;
    }
  }

  /** where says where a Note is: a Synced project's by its team workspace,
   * the same on the desktop that shared it and on a teammate's. */
  where(n: NoteInfo): string {
    return placeName(this.overview, n.project_id, n.workspace_id, this.teamPlaces, '');
  }
}
