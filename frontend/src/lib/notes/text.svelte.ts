// The text tab's sync state: what the person typed, what it started from,
// and what to do when the Note moved on underneath (an agent's accepted
// edit, another window). Saves are conditional on the version the editor
// last saw; a refused save keeps the person's text as a local draft.
import type { SaveResult } from '../api/notes';
import { DraftStore } from './drafts';
import { merge3, type MergeResult } from './merge';

/** save: the person's later "save" (why the banner shows); remote: the Note changed under unsaved typing. */
export type ConflictReason = 'save' | 'remote';

export interface TextConflict {
  reason: ConflictReason;
  current: string;
  currentVersion: number;
}

export type SaveText = (expectedVersion: number, text: string) => Promise<SaveResult>;

// A save refused only because another tab changed is retried at once; two
// more refusals in a row mean someone is writing continuously: show it.
const MAX_TRIES = 3;

export class TextTabState {
  base = $state('');
  baseVersion = $state(0);
  text = $state('');
  conflict = $state<TextConflict | null>(null);
  saving = $state(false);
  error = $state('');
  /** the last re-apply's outcome, shown once */
  merged = $state<MergeResult | null>(null);
  private pending: { text: string; version: number } | null = null;

  constructor(
    readonly noteId: string,
    readonly tabId: string,
    private drafts: DraftStore,
    private saveFn: SaveText,
    /** onSaved(prev, next): this editor moved the Note from prev to next */
    private onSaved: (prev: number, next: number) => void = () => {},
  ) {}

  get dirty(): boolean {
    return this.text !== this.base;
  }

  /** load takes the tab as stored, restoring the person's draft if one is kept. */
  load(serverText: string, version: number) {
    const d = this.drafts.get(this.noteId, this.tabId);
    if (d?.kind === 'text' && d.mine !== serverText) {
      this.base = d.base;
      // A Note older than the draft (a restored database) still gets compared.
      this.baseVersion = Math.min(d.baseVersion, version);
      this.text = d.mine;
      this.server(serverText, version, 'save');
      return;
    }
    if (d) this.drafts.remove(this.noteId, this.tabId);
    this.base = this.text = serverText;
    this.baseVersion = version;
    this.conflict = null;
  }

  /** server reconciles with the tab as stored at version, never dropping typing. */
  server(serverText: string, version: number, reason: ConflictReason = 'remote') {
    if (this.saving) {
      this.pending = { text: serverText, version };
      return;
    }
    if (version < this.baseVersion) return;
    if (!this.dirty) {
      this.base = this.text = serverText;
      this.baseVersion = version;
      this.conflict = null;
      this.drafts.remove(this.noteId, this.tabId);
    } else if (serverText === this.base || serverText === this.text) {
      // The tab itself did not change (another tab did), or it already holds
      // the person's text: nothing to merge, just follow the version.
      this.base = serverText;
      this.baseVersion = version;
      this.conflict = null;
      this.persist();
    } else {
      this.conflict = { reason: this.conflict?.reason ?? reason, current: serverText, currentVersion: version };
      this.persist();
    }
  }

  input(value: string) {
    this.text = value;
    this.merged = null;
    this.persist();
  }

  /** advance: the Note moved from prev to next by this editor's own save of another tab. */
  advance(prev: number, next: number) {
    if (this.baseVersion === prev) {
      this.baseVersion = next;
      this.persist();
    }
  }

  private persist() {
    if (!this.dirty) {
      this.drafts.remove(this.noteId, this.tabId);
      return;
    }
    const ok = this.drafts.put(this.noteId, this.tabId, {
      kind: 'text', base: this.base, baseVersion: this.baseVersion, mine: this.text, savedAt: Date.now(),
    });
    if (!ok) this.error = 'Your draft could not be kept on this computer (browser storage is full). Save or copy your text.';
  }

  /** save writes the text if the Note is still at the version this editor saw. */
  async save(): Promise<boolean> {
    if (this.saving || this.conflict || !this.dirty) return !this.conflict && !this.dirty;
    this.saving = true;
    this.error = '';
    let saved = false;
    try {
      for (let i = 0; i < MAX_TRIES; i++) {
        const sent = this.text;
        const expected = this.baseVersion;
        const r = await this.saveFn(expected, sent);
        if (r.saved) {
          this.base = sent;
          this.baseVersion = r.version;
          this.onSaved(expected, r.version);
          saved = true;
          break;
        }
        const current = r.current?.text ?? '';
        if (current === sent) {
          this.base = sent; // someone wrote exactly this text already
          this.baseVersion = r.version;
          saved = true;
          break;
        }
        if (current === this.base) {
          this.baseVersion = r.version; // only another tab changed: lossless, retry
          continue;
        }
        this.conflict = { reason: 'save', current, currentVersion: r.version };
        break;
      }
      if (!saved && !this.conflict) this.error = 'The note keeps changing; your text is kept as a draft. Try saving again.';
    } catch (e) {
      this.error = `Not saved: ${e instanceof Error ? e.message : String(e)}. Your text is kept as a local draft.`;
    } finally {
      this.saving = false;
      this.persist();
    }
    const p = this.pending;
    this.pending = null;
    if (p) this.server(p.text, p.version);
    return saved;
  }

  /** reapply merges the person's change into the current text and saves it. */
  async reapply(): Promise<MergeResult | null> {
    const c = this.conflict;
    if (!c) return null;
    const m = merge3(this.base, this.text, c.current);
    this.base = c.current;
    this.baseVersion = c.currentVersion;
    this.text = m.text;
    this.conflict = null;
    this.persist();
    this.merged = m;
    await this.save();
    return m;
  }

  /** keepMine saves the person's text as is against the current version (overwrites the other change). */
  async keepMine(): Promise<boolean> {
    const c = this.conflict;
    if (!c) return false;
    this.base = c.current;
    this.baseVersion = c.currentVersion;
    this.conflict = null;
    this.persist();
    return this.save();
  }

  /** discard drops the person's draft and takes the current text. */
  discard() {
    const c = this.conflict;
    if (c) {
      this.base = c.current;
      this.baseVersion = c.currentVersion;
    }
    this.text = this.base;
    this.conflict = null;
    this.merged = null;
    this.persist();
  }
}
