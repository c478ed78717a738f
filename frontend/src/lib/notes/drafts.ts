// Drafts: the person's unsaved text (and unsaved Sheet cells) of a Note tab,
// a knowledge article or a Record item, kept in the app's database so that
// neither a refused save, a reload nor the app being killed loses it. A
// draft remembers the text it started from (base) and the version it was
// read at, which is what compare and re-apply need.
//
// The editor reads and writes drafts synchronously from memory; each change
// reaches the database (NotesBinding.SaveDraft, one small transaction)
// DRAFT_DELAY_MS after the person stops typing. Drafts used to live in the
// web view's localStorage, which WebKit writes to disk seconds late: a draft
// typed just before a crash was lost. Drafts an older version left there
// are moved into the database once.
import { notesApi, type Cell, type KeptDraft } from '../api/notes';

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

/** DraftBackend is where drafts are kept (the app's database through the Notes binding). */
export interface DraftBackend {
  list(): Promise<KeptDraft[]>;
  save(owner: string, item: string, data: string): Promise<void>;
  discard(owner: string, item: string): Promise<void>;
}

/** Failed tells the editor that a draft could not be kept, and why. */
export type Failed = (why: string) => void;

export const DRAFT_DELAY_MS = 300;

const LEGACY_PREFIX = 'osfoundry.notes.draft.';

const appBackend: DraftBackend = {
  list: () => notesApi.drafts(),
  save: (owner, item, data) => notesApi.saveDraft(owner, item, data),
  discard: (owner, item) => notesApi.discardDraft(owner, item),
};

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function parse(raw: string): Draft | null {
  try {
    const d = JSON.parse(raw) as Draft;
    if (d && (d.kind === 'text' || d.kind === 'sheet') && typeof d.baseVersion === 'number') return d;
  } catch {
    // A corrupt entry is dropped rather than breaking the editor.
  }
  return null;
}

/** DraftStore keeps drafts in memory for the editor and in the backend for restarts. */
export class DraftStore {
  private mem = new Map<string, { owner: string; item: string; draft: Draft }>();
  /** keys the backend may hold, so a clean editor does not write to drop nothing */
  private kept = new Set<string>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private failed = new Map<string, Failed>();
  private loading: Promise<void> | null = null;
  // Writes run one after another: a discard must never overtake the save
  // before it (the bound calls themselves may run in any order).
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private backend: DraftBackend = appBackend,
    private legacy: Storage | undefined = globalThis.localStorage,
    private delay = DRAFT_DELAY_MS,
  ) {}

  key(owner: string, item: string): string {
    return `${owner}\u0000${item}`;
  }

  /** adopt takes a draft the backend kept for the person (a synced edit
   * that lost on the team server); one the person is typing wins. */
  adopt(owner: string, item: string, raw: string): boolean {
    const key = this.key(owner, item);
    const d = parse(raw);
    if (!d || this.mem.has(key)) return false;
    this.mem.set(key, { owner, item, draft: d });
    this.kept.add(key);
    return true;
  }

  /** ready loads the kept drafts once; editors wait for it before they open. */
  ready(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load() {
    let kept: KeptDraft[] = [];
    try {
      kept = await this.backend.list();
    } catch {
      // Without the backend the editor still works; drafts stay in memory.
    }
    for (const k of kept) {
      const key = this.key(k.owner_id, k.item_id);
      this.kept.add(key);
      if (this.mem.has(key) || this.timers.has(key)) continue; // typed while loading
      const d = parse(k.data);
      if (d) this.mem.set(key, { owner: k.owner_id, item: k.item_id, draft: d });
      else this.schedule(key, k.owner_id, k.item_id, 0);
    }
    this.moveLegacy();
  }

  /** moveLegacy takes the drafts an older version kept in localStorage into the backend. */
  private moveLegacy() {
    const s = this.legacy;
    if (!s) return;
    const found: string[] = [];
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      if (k?.startsWith(LEGACY_PREFIX)) found.push(k);
    }
    for (const k of found) {
      const rest = k.slice(LEGACY_PREFIX.length);
      const dot = rest.indexOf('.');
      const raw = s.getItem(k) ?? '';
      const d = parse(raw);
      const owner = rest.slice(0, dot);
      const item = rest.slice(dot + 1);
      const key = this.key(owner, item);
      if (dot <= 0 || !d || this.mem.has(key)) {
        s.removeItem(k);
        continue;
      }
      this.mem.set(key, { owner, item, draft: d });
      // Removed from localStorage only once the database holds it.
      this.queue = this.queue.then(async () => {
        try {
          await this.backend.save(owner, item, raw);
          this.kept.add(key);
          s.removeItem(k);
        } catch {
          // Kept in localStorage and memory; the next start tries again.
        }
      });
    }
  }

  get(owner: string, item: string): Draft | null {
    return this.mem.get(this.key(owner, item))?.draft ?? null;
  }

  /** put keeps d; failed hears why if the backend cannot keep it. */
  put(owner: string, item: string, d: Draft, failed: Failed): boolean {
    const key = this.key(owner, item);
    this.mem.set(key, { owner, item, draft: d });
    this.failed.set(key, failed);
    this.schedule(key, owner, item, this.delay);
    return true;
  }

  remove(owner: string, item: string) {
    const key = this.key(owner, item);
    const had = this.mem.delete(key);
    if (had || this.kept.has(key) || this.timers.has(key)) this.schedule(key, owner, item, 0);
  }

  /** noteIds lists the Notes (owners) that hold at least one draft (the list marks them). */
  noteIds(): Set<string> {
    return new Set([...this.mem.values()].map((e) => e.owner));
  }

  /** flush writes every waiting change now; it resolves once they are kept. */
  flush(): Promise<void> {
    for (const [key, t] of [...this.timers]) {
      clearTimeout(t);
      this.timers.delete(key);
      const [owner, item] = key.split('\u0000');
      this.write(key, owner, item);
    }
    return this.queue;
  }

  private schedule(key: string, owner: string, item: string, delay: number) {
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.write(key, owner, item);
    }, delay));
  }

  /** write sends what is kept for key when its turn comes: the draft, or its removal. */
  private write(key: string, owner: string, item: string) {
    this.queue = this.queue.then(async () => {
      const e = this.mem.get(key);
      try {
        if (e) {
          await this.backend.save(owner, item, JSON.stringify(e.draft));
          this.kept.add(key);
        } else if (this.kept.has(key)) {
          await this.backend.discard(owner, item);
          this.kept.delete(key);
        }
      } catch (err) {
        if (e) this.failed.get(key)?.(message(err));
      }
    });
  }
}

let shared: DraftStore | null = null;

/** sharedDrafts is the app's one DraftStore (Notes, Knowledge and Records share its queue). */
export function sharedDrafts(): DraftStore {
  if (!shared) {
    const s = (shared = new DraftStore());
    // A window being closed or reloaded writes what is still waiting.
    globalThis.addEventListener?.('pagehide', () => void s.flush());
  }
  return shared;
}
