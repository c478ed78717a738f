// Test doubles for the drafts' backend and the legacy localStorage.
import type { KeptDraft } from '../api/notes';
import type { DraftBackend } from './drafts';

/** MemStorage is a Storage in memory (localStorage in the app). */
export class MemStorage implements Storage {
  private m = new Map<string, string>();
  get length() { return this.m.size; }
  clear() { this.m.clear(); }
  getItem(k: string) { return this.m.get(k) ?? null; }
  key(i: number) { return [...this.m.keys()][i] ?? null; }
  removeItem(k: string) { this.m.delete(k); }
  setItem(k: string, v: string) { this.m.set(k, v); }
}

/** MemDrafts is the app database's drafts table in memory; calls lists every call made. */
export class MemDrafts implements DraftBackend {
  rows = new Map<string, KeptDraft>();
  calls: string[] = [];
  /** fail makes every call throw this message */
  fail = '';

  async list(): Promise<KeptDraft[]> {
    this.calls.push('list');
    if (this.fail) throw new Error(this.fail);
    return [...this.rows.values()];
  }

  async save(owner: string, item: string, data: string): Promise<void> {
    this.calls.push(`save ${owner}/${item}`);
    if (this.fail) throw new Error(this.fail);
    this.rows.set(`${owner}/${item}`, { owner_id: owner, item_id: item, data, saved_at: '' });
  }

  async discard(owner: string, item: string): Promise<void> {
    this.calls.push(`discard ${owner}/${item}`);
    if (this.fail) throw new Error(this.fail);
    this.rows.delete(`${owner}/${item}`);
  }

  /** mine is the text of a kept text draft, or null. */
  mine(owner: string, item: string): string | null {
    const r = this.rows.get(`${owner}/${item}`);
    return r ? (JSON.parse(r.data).mine ?? null) : null;
  }
}
