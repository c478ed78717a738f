// The Sheet tab's sync state: the person's changed cells on top of the
// sheet as last seen. A save writes the whole tab conditionally; when the
// Note moved on, re-apply puts the person's cells onto the current sheet
// (every other cell keeps the current value).
import type { Cell, SaveResult, SheetData } from '../api/notes';
import type { CellEdit, Draft, DraftStore } from './drafts';
import { MAX_TRIES, TabState, type ConflictReason, type TabConflict } from './tab.svelte';

export type SheetConflict = TabConflict<SheetData>;

type Edit = CellEdit & { was: Cell };

export type SaveSheet = (expectedVersion: number, sheet: SheetData) => Promise<SaveResult>;

/** colName: 0 → A, 25 → Z, 26 → AA. */
export function colName(c: number): string {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** parseCell turns typed text into a cell value: '' → empty, numbers → numbers, else text. */
export function parseCell(raw: string): Cell {
  const t = raw.trim();
  if (t === '') return null;
  if (NUMBER.test(t) && Number.isFinite(Number(t))) return Number(t);
  return raw;
}

export function showCell(v: Cell | undefined): string {
  return v === null || v === undefined ? '' : String(v);
}

export function cellAt(d: SheetData, sheet: string, row: number, col: number): Cell {
  const sh = d.sheets.find((s) => s.id === sheet);
  return sh?.cells[row]?.[col] ?? null;
}

/** applyEdits returns a copy of d with edits written (rows and columns grow as needed). */
export function applyEdits(d: SheetData, edits: CellEdit[]): SheetData {
  const out: SheetData = structuredClone($state.snapshot(d) as SheetData);
  for (const e of edits) {
    const sh = out.sheets.find((s) => s.id === e.sheet);
    if (!sh) continue;
    while (sh.cells.length <= e.row) sh.cells.push([]);
    const row = sh.cells[e.row];
    while (row.length <= e.col) row.push(null);
    row[e.col] = e.value;
  }
  return out;
}

const key = (sheet: string, row: number, col: number) => `${sheet}:${row}:${col}`;

export class SheetTabState extends TabState<SheetData> {
  base = $state<SheetData>({ sheets: [] });
  edits = $state<Record<string, Edit>>({});
  protected draftLost(why: string): string {
    return `Your changed cells could not be kept on this computer (${why}). Save now.`;
  }
  protected readonly keptAsDraft = 'Your cells are kept as a local draft.';

  constructor(
    noteId: string,
    tabId: string,
    drafts: DraftStore,
    private saveFn: SaveSheet,
    onSaved: (prev: number, next: number) => void = () => {},
  ) {
    super(noteId, tabId, drafts, onSaved);
  }

  get dirty(): boolean {
    return Object.keys(this.edits).length > 0;
  }

  editList(): Edit[] {
    return Object.values(this.edits);
  }

  load(data: SheetData, version: number) {
    const d = this.drafts.get(this.noteId, this.tabId);
    this.base = data;
    this.baseVersion = version;
    this.edits = {};
    this.conflict = null;
    if (d?.kind !== 'sheet') {
      if (d) this.drafts.remove(this.noteId, this.tabId);
      return;
    }
    for (const e of d.edits) this.edits[key(e.sheet, e.row, e.col)] = e;
    this.baseVersion = Math.min(d.baseVersion, version);
    this.server(data, version, 'save');
  }

  cell(sheet: string, row: number, col: number): Cell {
    const e = this.edits[key(sheet, row, col)];
    return e ? e.value : cellAt(this.base, sheet, row, col);
  }

  edited(sheet: string, row: number, col: number): boolean {
    return key(sheet, row, col) in this.edits;
  }

  setCell(sheet: string, row: number, col: number, raw: string) {
    const value = parseCell(raw);
    const was = cellAt(this.base, sheet, row, col);
    const k = key(sheet, row, col);
    if (value === was) delete this.edits[k];
    else this.edits[k] = { sheet, row, col, value, was };
    this.persist();
  }

  protected reconcile(data: SheetData, version: number, reason: ConflictReason) {
    const mine = this.editList();
    if (mine.every((e) => cellAt(data, e.sheet, e.row, e.col) === e.value)) {
      this.base = data; // clean, or the current sheet already holds the person's cells
      this.edits = {};
      this.conflict = null;
    } else if (mine.every((e) => cellAt(data, e.sheet, e.row, e.col) === e.was)) {
      this.base = data; // other cells changed: the person's cells still apply on top
      this.conflict = null;
    } else {
      this.conflict = { reason: this.conflict?.reason ?? reason, current: data, currentVersion: version };
      this.persist();
      return;
    }
    this.baseVersion = version;
    this.persist();
  }

  /** conflicting lists the person's cells that the other side changed too. */
  conflicting(): Edit[] {
    const c = this.conflict;
    return c ? this.editList().filter((e) => cellAt(c.current, e.sheet, e.row, e.col) !== e.was) : [];
  }

  protected draft(): Draft {
    return {
      kind: 'sheet', baseVersion: this.baseVersion, edits: $state.snapshot(this.editList()) as Edit[], savedAt: Date.now(),
    };
  }

  protected async attempt(): Promise<boolean> {
    for (let i = 0; i < MAX_TRIES && !this.conflict; i++) {
      const sent = this.editList();
      const full = applyEdits(this.base, sent);
      const expected = this.baseVersion;
      const r = await this.saveFn(expected, full);
      if (r.saved) {
        this.base = full;
        this.baseVersion = r.version;
        // Cells typed while the save was in flight stay as edits.
        for (const [k, e] of Object.entries(this.edits)) {
          if (sent.some((s) => key(s.sheet, s.row, s.col) === k && s.value === e.value)) delete this.edits[k];
          else e.was = cellAt(full, e.sheet, e.row, e.col);
        }
        this.onSaved(expected, r.version);
        return true;
      } else if (r.current?.sheet && sent.every((e) => cellAt(r.current!.sheet!, e.sheet, e.row, e.col) === e.was)) {
        this.base = r.current.sheet; // only other cells changed: rebase, retry
        this.baseVersion = r.version;
      } else {
        this.conflict = { reason: 'save', current: r.current?.sheet ?? { sheets: [] }, currentVersion: r.version };
      }
    }
    return false;
  }

  /** reapply writes the person's cells onto the current sheet and saves. */
  async reapply(): Promise<boolean> {
    const c = this.resolve();
    if (!c) return false;
    for (const [k, e] of Object.entries(this.edits)) {
      e.was = cellAt(c.current, e.sheet, e.row, e.col);
      if (e.was === e.value) delete this.edits[k];
    }
    this.persist();
    return this.save();
  }

  discard() {
    this.resolve();
    this.edits = {};
    this.persist();
  }
}
