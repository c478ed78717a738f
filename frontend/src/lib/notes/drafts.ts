// Local drafts: the person's unsaved text (and unsaved Sheet cells) kept in
// localStorage, so neither a refused save nor a reload loses it. A draft
// remembers the text it started from (base) and the Note version it was
// read at, which is what compare and re-apply need.
import type { Cell } from '../api/notes';

export interface TextDraft {
  kind: 'text';
  base: string;
  baseVersion: number;
  mine: string;
  savedAt: number;
}

export interface CellEdit { sheet: string; row: number; col: number; value: Cell }

export interface SheetDraft {
  kind: 'sheet';
  baseVersion: number;
  /** the person's changed cells, each with the value it had in the base */
  edits: (CellEdit & { was: Cell })[];
  savedAt: number;
}

export type Draft = TextDraft | SheetDraft;

const PREFIX = 'osfoundry.notes.draft.';

/** DraftStore reads and writes drafts in a Storage (localStorage in the app). */
export class DraftStore {
  constructor(private storage: Storage | undefined = globalThis.localStorage) {}

  key(noteId: string, tabId: string): string {
    return `${PREFIX}${noteId}.${tabId}`;
  }

  get(noteId: string, tabId: string): Draft | null {
    const raw = this.storage?.getItem(this.key(noteId, tabId));
    if (!raw) return null;
    try {
      const d = JSON.parse(raw) as Draft;
      if (d && (d.kind === 'text' || d.kind === 'sheet') && typeof d.baseVersion === 'number') return d;
    } catch {
      // A corrupt entry is dropped rather than breaking the editor.
    }
    this.storage?.removeItem(this.key(noteId, tabId));
    return null;
  }

  /** put returns false when the browser refused (storage full): the UI says so. */
  put(noteId: string, tabId: string, d: Draft): boolean {
    try {
      this.storage?.setItem(this.key(noteId, tabId), JSON.stringify(d));
      return true;
    } catch {
      return false;
    }
  }

  remove(noteId: string, tabId: string) {
    this.storage?.removeItem(this.key(noteId, tabId));
  }

  /** noteIds lists the Notes that hold at least one draft (the list marks them). */
  noteIds(): Set<string> {
    const out = new Set<string>();
    if (!this.storage) return out;
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (k?.startsWith(PREFIX)) out.add(k.slice(PREFIX.length).split('.')[0]);
    }
    return out;
  }
}
