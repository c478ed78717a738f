// What the text and Sheet tabs' sync states share: the version the editor
// last saw, the conflict when the Note moved on under unsaved changes, the
// draft that keeps those changes (in the app's database), and the conditional save whose
// refusal never loses them. Each tab kind says what its changes are, how
// they meet a newer Note, and how one save is tried.
import type { Draft, DraftStore } from './drafts';

/** save: the person's later "save" (why the banner shows); remote: the Note changed under unsaved typing. */
export type ConflictReason = 'save' | 'remote';

/** TabConflict: the tab as now stored, which the person's changes were not made on. */
export interface TabConflict<Data> {
  reason: ConflictReason;
  current: Data;
  currentVersion: number;
}

// A save refused only because another tab changed is retried at once; two
// more refusals in a row mean someone is writing continuously: show it.
export const MAX_TRIES = 3;

export abstract class TabState<Data> {
  /** the tab as last seen stored, which the person's changes apply to */
  abstract base: Data;
  baseVersion = $state(0);
  conflict = $state<TabConflict<Data> | null>(null);
  saving = $state(false);
  error = $state('');
  private pending: { data: Data; version: number } | null = null;

  constructor(
    readonly noteId: string,
    readonly tabId: string,
    protected drafts: DraftStore,
    /** onSaved(prev, next): this editor moved the Note from prev to next */
    protected onSaved: (prev: number, next: number) => void,
  ) {}

  /** dirty: the person has changes not yet saved. */
  abstract get dirty(): boolean;

  /** draft is the person's changes as kept on this computer. */
  protected abstract draft(): Draft;
  /** draftLost tells the person a draft could not be kept, and what to do. */
  protected abstract draftLost(why: string): string;
  /** keptAsDraft ends the message of a save that failed. */
  protected abstract readonly keptAsDraft: string;
  /** reconcile meets the tab as stored at version (not older than the base). */
  protected abstract reconcile(data: Data, version: number, reason: ConflictReason): void;
  /** attempt makes the conditional writes of one save; true once saved. */
  protected abstract attempt(): Promise<boolean>;

  /** server reconciles with the tab as stored at version, never dropping the person's changes. */
  server(data: Data, version: number, reason: ConflictReason = 'remote') {
    if (this.saving) {
      this.pending = { data, version };
      return;
    }
    if (version < this.baseVersion) return;
    this.reconcile(data, version, reason);
  }

  /** advance: the Note moved from prev to next by this editor's own save of another tab. */
  advance(prev: number, next: number) {
    if (this.baseVersion === prev) {
      this.baseVersion = next;
      this.persist();
    }
  }

  /** save writes the changes if the Note is still at the version this editor saw. */
  async save(): Promise<boolean> {
    if (this.saving || this.conflict || !this.dirty) return !this.conflict && !this.dirty;
    this.saving = true;
    this.error = '';
    let saved = false;
    try {
      saved = await this.attempt();
    } catch (e) {
      this.error = `Not saved: ${e instanceof Error ? e.message : String(e)}. ${this.keptAsDraft}`;
    } finally {
      this.saving = false;
      this.persist();
    }
    // The Note as it arrived during the save, now that base is settled.
    const p = this.pending;
    this.pending = null;
    if (p) this.server(p.data, p.version);
    return saved;
  }

  /** resolve takes the conflict's current tab (if any) as the base and clears the conflict. */
  protected resolve(): TabConflict<Data> | null {
    const c = this.conflict;
    if (c) {
      this.base = c.current;
      this.baseVersion = c.currentVersion;
    }
    this.conflict = null;
    return c;
  }

  /** persist keeps the person's changes as a draft, or drops the draft when there are none. */
  protected persist() {
    if (!this.dirty) {
      this.drafts.remove(this.noteId, this.tabId);
      return;
    }
    this.drafts.put(this.noteId, this.tabId, this.draft(), (why) => (this.error = this.draftLost(why)));
  }
}
