// The Records screen's state: the Record channels, the open channel's items
// (a board by status, or a table) and the open item's editor. The body
// editor is the Notes text editor's sync state (TextTabState): saves are
// conditional on the version it last saw, a refused save keeps a local
// draft, compare / re-apply work the same. Title and status changes are
// conditional too. records:changed (any writer, an agent's edit_record_item
// included) refreshes the open channel and follows the open item live.
import { on } from './events';
import { teamApi } from './api/team';
import { bodyOf, recordsApi, type RecordChannel, type RecordEdit, type RecordItem, type RecordsOverview } from './api/records';
import { notesApi, type SaveResult } from './api/notes';
import { sharedDrafts, type DraftStore } from './notes/drafts';
import { TextTabState } from './notes/text.svelte';
import { createThenReload, errorText as message, placeName } from './place';
import { alreadyGone, deleteError, recordDeleteText, SyncedProjects } from './deletes';


export class RecordEditor {
  item = $state<RecordItem | null>(null);
  /** a refused title or status change, said in words */
  error = $state('');
  readonly ed: TextTabState;

  constructor(readonly channel: string, readonly id: string, drafts: DraftStore) {
    this.ed = new TextTabState(channel, id, drafts, (expected, text) => this.saveBody(expected, text));
  }

  private async saveBody(expected: number, text: string): Promise<SaveResult> {
    const it = this.item;
    const r = await recordsApi.saveItem(this.channel, this.id, expected, { title: it?.title ?? '', status: it?.status ?? '', body: text });
    if (r.current) this.item = r.current;
    else if (r.saved && it) this.item = { ...it, version: r.version, fields: { ...it.fields, body: text } };
    return {
      saved: r.saved, version: r.version, tab_version: r.version,
      current: r.current ? { tab_id: this.id, kind: 'text', title: '', position: 0, tab_version: r.version, updated_at: r.current.updated_at, text: bodyOf(r.current) } : undefined,
    };
  }

  /** follow takes the item as stored now without dropping the person's typing. */
  follow(it: RecordItem) {
    if (!this.item) {
      this.item = it;
      this.ed.load(bodyOf(it), it.version);
      return;
    }
    if (it.version < this.item.version) return;
    this.item = it;
    this.ed.server(bodyOf(it), it.version);
  }

  /** change saves a new title or status on the item as last seen; the body stays as stored. */
  async change(edit: Partial<Pick<RecordEdit, 'title' | 'status'>>): Promise<boolean> {
    const it = this.item;
    if (!it) return false;
    const prev = it.version;
    try {
      const r = await recordsApi.saveItem(this.channel, this.id, prev, { title: it.title, status: it.status, body: bodyOf(it), ...edit });
      if (r.saved) {
        this.item = { ...it, ...edit, version: r.version };
        this.ed.advance(prev, r.version);
        this.error = '';
        return true;
      }
      this.error = `Not changed: this record changed since you opened it (now version ${r.version}). It is shown as it is now; make your change again.`;
      if (r.current) this.follow(r.current);
    } catch (e) {
      this.error = `Not changed: ${message(e)}`;
    }
    return false;
  }
}

export class RecordsState {
  overview = $state<RecordsOverview>({ workspaces: [], projects: [], channels: [] });
  /** the team workspace's name of each Synced project, by project id */
  teamPlaces = $state<Record<string, string>>({});
  loaded = $state(false);
  error = $state('');
  channel = $state('');
  items = $state<RecordItem[]>([]);
  editor = $state<RecordEditor | null>(null);
  readonly drafts: DraftStore = sharedDrafts();
  /** the Record whose Delete waits for the person's answer, with what the confirm says */
  deleting = $state<{ channel: string; id: string; text: string } | null>(null);
  deleteBusy = $state(false);
  private readonly synced = new SyncedProjects();

  /** start loads the list and follows record changes; it returns the stop function. */
  start(): () => void {
    void this.load();
    void this.synced.get(); // known before a Delete asks, even offline
    const offs = [
      on('records:changed', (ev) => {
        if (ev.record_channel_id !== this.channel) return;
        void this.refresh();
        const ed = this.editor;
        if (ed?.id === ev.item_id) void this.followLive(ed);
      }),
      // A deleted Record that came back with an edit is on the board again.
      on('team:kept-after-delete', (ev) => {
        if (ev.kind === 'record' && ev.containerId === this.channel) void this.refresh();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  /** followLive follows the open item after a change event; a delete closes it unless it holds typing. */
  private async followLive(ed: RecordEditor) {
    try {
      ed.follow(await recordsApi.item(ed.channel, ed.id));
    } catch (e) {
      if (this.editor !== ed || this.deleting?.id === ed.id) return; // closed, or the person's own delete closes it
      if (!alreadyGone(e)) this.error = `Could not read the record's change: ${message(e)}. Close it and open it again.`;
      else if (ed.ed.dirty) this.error = 'This record was deleted elsewhere. Your text is still here: copy it or add it as a new record.';
      else {
        this.editor = null;
        this.error = `“${ed.item?.title ?? ed.id}” was deleted elsewhere.`;
      }
    }
  }

  async load() {
    try {
      const [o, places] = await Promise.all([recordsApi.overview(), teamApi.teamPlaces().catch(() => null)]);
      this.overview = o;
      if (places) this.teamPlaces = places;
      this.error = '';
    } catch (e) {
      this.error = `Could not load Record channels: ${message(e)}`;
    }
    this.loaded = true;
  }

  get current(): RecordChannel | undefined {
    return this.overview.channels.find((c) => c.record_channel_id === this.channel);
  }

  where(c: RecordChannel): string {
    return placeName(this.overview, c.project_id, c.workspace_id, this.teamPlaces);
  }

  createChannel(workspace: string, project: string, name: string, statuses: string[]): Promise<string | null> {
    return createThenReload(() => recordsApi.createChannel(workspace, project, name, statuses), (c) => c.record_channel_id, () => this.load(), (t) => (this.error = t));
  }

  createProject(workspace: string, name: string): Promise<string | null> {
    return createThenReload(() => notesApi.createProject(workspace, name), (p) => p.id, () => this.load(), (t) => (this.error = t), 'Project not created');
  }

  async selectChannel(id: string) {
    if (this.channel !== id) {
      this.channel = id;
      this.editor = null;
      this.items = [];
    }
    await this.refresh();
  }

  async refresh() {
    if (!this.channel) return;
    try {
      this.items = await recordsApi.items(this.channel);
    } catch (e) {
      this.error = `Could not load the records: ${message(e)}`;
    }
  }

  async openItem(id: string) {
    if (!this.channel || this.editor?.id === id) return;
    const ed = new RecordEditor(this.channel, id, this.drafts);
    this.editor = ed;
    if (!(await this.followItem(ed))) this.editor = null;
  }

  private async followItem(ed: RecordEditor): Promise<boolean> {
    try {
      const [it] = await Promise.all([recordsApi.item(ed.channel, ed.id), this.drafts.ready()]);
      ed.follow(it);
      return true;
    } catch (e) {
      this.error = `Could not open the record: ${message(e)}`;
      return false;
    }
  }

  closeItem() {
    this.editor = null;
  }

  async addItem(title: string, status: string, body: string): Promise<string | null> {
    try {
      const it = await recordsApi.addItem(this.channel, title, status, body);
      this.error = '';
      await this.refresh();
      return it.item_id;
    } catch (e) {
      this.error = `Not added: ${message(e)}`;
      return null;
    }
  }

  /** askDelete shows the confirm for the open channel's item id. */
  async askDelete(id: string) {
    const c = this.current;
    const it = this.items.find((x) => x.item_id === id) ?? (this.editor?.id === id ? this.editor.item : null);
    if (!c || !it) return;
    const synced = await this.synced.get();
    this.deleting = { channel: c.record_channel_id, id, text: recordDeleteText(it.title, c.name, synced.has(c.project_id)) };
  }

  /** deleteItem deletes the item the confirm asked about; true: it is gone (error says so when it was already); false: still there (error says why). */
  async deleteItem(): Promise<boolean> {
    const d = this.deleting;
    if (!d) return false;
    this.deleteBusy = true;
    let failed = '';
    let gone = true;
    try {
      await recordsApi.deleteItem(d.channel, d.id);
    } catch (e) {
      failed = deleteError('record', e);
      gone = alreadyGone(e);
    }
    if (gone) {
      this.drafts.remove(d.channel, d.id);
      if (this.editor?.id === d.id) this.editor = null;
    }
    await this.refresh();
    this.deleting = null;
    this.deleteBusy = false;
    this.error = failed;
    return gone;
  }

  /** move sets an item's status from the board, conditional on the version the board shows. */
  async move(it: RecordItem, status: string): Promise<boolean> {
    if (this.editor?.id === it.item_id) {
      // The open editor writes it (its body may hold typing); the board
      // then shows the move at once rather than on the change event.
      const ok = await this.editor.change({ status });
      await this.refresh();
      return ok;
    }
    try {
      const r = await recordsApi.saveItem(this.channel, it.item_id, it.version, { title: it.title, status, body: bodyOf(it) });
      if (!r.saved) this.error = `Not moved: "${it.title}" changed since the board showed it (now version ${r.version}). Look again and move it once more.`;
      else this.error = '';
      await this.refresh();
      return r.saved;
    } catch (e) {
      this.error = `Not moved: ${message(e)}`;
      return false;
    }
  }
}
