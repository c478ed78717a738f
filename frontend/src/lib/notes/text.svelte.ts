// The text tab's sync state: what the person typed, what it started from,
// and what to do when the Note moved on underneath (an agent's accepted
// edit, another window). Saves are conditional on the version the editor
// last saw; a refused save keeps the person's text as a local draft.
import type { SaveResult } from '../api/notes';
import type { Draft, DraftStore } from './drafts';
import { merge3, type MergeResult } from './merge';
import { MAX_TRIES, TabState, type ConflictReason, type TabConflict } from './tab.svelte';

export type { ConflictReason } from './tab.svelte';
export type TextConflict = TabConflict<string>;

export type SaveText = (expectedVersion: number, text: string) => Promise<SaveResult>;

export class TextTabState extends TabState<string> {
  base = $state('');
  text = $state('');
  /** the last re-apply's outcome, shown once */
  merged = $state<MergeResult | null>(null);
  protected draftLost(why: string): string {
    return `Your draft could not be kept on this computer (${why}). Save or copy your text.`;
  }
  protected readonly keptAsDraft = 'Your text is kept as a local draft.';

  constructor(
    noteId: string,
    tabId: string,
    drafts: DraftStore,
    private saveFn: SaveText,
    onSaved: (prev: number, next: number) => void = () => {},
  ) {
    super(noteId, tabId, drafts, onSaved);
  }

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

  /** adoptDraft shows a draft kept while this tab was open (a synced edit
   * that lost on the team server): the person's text over what it started
   * from, compared with what the tab holds now. */
  adoptDraft() {
    const d = this.drafts.get(this.noteId, this.tabId);
    if (d?.kind !== 'text' || this.dirty || this.saving) return;
    const current = this.base;
    const version = this.baseVersion;
    this.base = d.base;
    this.baseVersion = Math.min(d.baseVersion, version);
    this.text = d.mine;
    this.persist();
    // What the editor held is the current text, unless it is the person's
    // own edit that lost (saved here at a version the server gave another
    // edit): the caller then brings the server's copy.
    if (version > this.baseVersion && current !== d.mine) this.server(current, version, 'save');
  }

  protected reconcile(serverText: string, version: number, reason: ConflictReason) {
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

  protected draft(): Draft {
    return { kind: 'text', base: this.base, baseVersion: this.baseVersion, mine: this.text, savedAt: Date.now() };
  }

  protected async attempt(): Promise<boolean> {
    for (let i = 0; i < MAX_TRIES; i++) {
      const sent = this.text;
      const expected = this.baseVersion;
      const r = await this.saveFn(expected, sent);
      if (r.saved) {
        this.base = sent;
        this.baseVersion = r.version;
        this.onSaved(expected, r.version);
        return true;
      }
      const current = r.current?.text ?? '';
      if (current === sent) {
        this.base = sent; // someone wrote exactly this text already
        this.baseVersion = r.version;
        return true;
      }
      if (current === this.base) {
        this.baseVersion = r.version; // only another tab changed: lossless, retry
        continue;
      }
      this.conflict = { reason: 'save', current, currentVersion: r.version };
      return false;
    }
    this.error = 'The note keeps changing; your text is kept as a draft. Try saving again.';
    return false;
  }

  /** reapply merges the person's change into the current text and saves it. */
  async reapply(): Promise<MergeResult | null> {
    const c = this.conflict;
    if (!c) return null;
    const m = merge3(this.base, this.text, c.current);
    this.resolve();
    this.text = m.text;
    this.persist();
    this.merged = m;
    await this.save();
    return m;
  }

  /** keepMine saves the person's text as is against the current version (overwrites the other change). */
  async keepMine(): Promise<boolean> {
    if (!this.resolve()) return false;
    this.persist();
    return this.save();
  }

  /** discard drops the person's draft and takes the current text. */
  discard() {
    this.resolve();
    this.text = this.base;
    this.merged = null;
    this.persist();
  }
}
