import { describe, expect, it } from 'vitest';
import type { Note, NoteInfo, SaveResult, SheetData, Tab } from '../api/notes';
import { notesApi } from '../api/notes';
import { DraftStore } from './drafts';
import { MemDrafts, MemStorage } from './drafts.testkit';
import { NoteEditor, NotesState } from '../notes.svelte';

const tab = (id: string, kind: Tab['kind'], over: Partial<Tab>): Tab => ({
  tab_id: id, kind, title: id, position: 0, tab_version: 1, updated_at: '', ...over,
});

/** FakeBackend: one Note with a text tab and a Sheet tab under the store's version rule. */
class FakeBackend {
  note: Note = {
    note_id: 'n1', workspace_id: 'w', project_id: '', title: 'Plan', version: 1, updated_at: '',
    tabs: [tab('t1', 'text', { text: 'hello' }), tab('s1', 'sheet', { sheet: { sheets: [{ id: 'sheet-1', name: 'S', cells: [] }] } })],
  };
  gets = 0;
  private save(tabId: string, expected: number, put: (t: Tab) => void): SaveResult {
    const t = this.note.tabs.find((x) => x.tab_id === tabId)!;
    if (expected !== this.note.version) return { saved: false, version: this.note.version, tab_version: 0, current: structuredClone(t) };
    put(t);
    return { saved: true, version: ++this.note.version, tab_version: 0 };
  }
  api: typeof notesApi = {
    ...notesApi,
    get: async () => { this.gets++; return structuredClone(this.note); },
    saveText: async (_n, tabId, v, text) => this.save(tabId, v, (t) => (t.text = text)),
    saveSheet: async (_n, tabId, v, sheet: SheetData) => this.save(tabId, v, (t) => (t.sheet = structuredClone(sheet))),
    addTab: async (_n, v, kind, title) => {
      if (v !== this.note.version) return { result: { saved: false, version: this.note.version, tab_version: 0 }, tab: tab('', kind, {}) };
      const t = tab(`t${this.note.tabs.length + 1}`, kind, { title, text: '' });
      this.note.tabs.push(t);
      return { result: { saved: true, version: ++this.note.version, tab_version: 1 }, tab: t };
    },
  };
}

async function open() {
  const be = new FakeBackend();
  const ed = new NoteEditor('n1', be.api, new DraftStore(new MemDrafts(), new MemStorage()));
  await ed.load();
  return { be, ed };
}

describe('NoteEditor', () => {
  it('saving one tab moves the other tab to the new version too', async () => {
    const { be, ed } = await open();
    ed.texts.t1.input('hello\nmine');
    expect(await ed.texts.t1.save()).toBe(true);
    expect(ed.version).toBe(2);
    expect(ed.sheets.s1.baseVersion).toBe(2);
    ed.sheets.s1.setCell('sheet-1', 0, 0, '7');
    expect(await ed.sheets.s1.save()).toBe(true);
    expect(be.note.tabs[1].sheet?.sheets[0].cells[0][0]).toBe(7);
    expect(ed.dirty).toBe(false);
  });

  it('fetches only for versions it has not seen, and follows a clean tab', async () => {
    const { be, ed } = await open();
    await ed.changed({ note_id: 'n1', version: 1 });
    await ed.changed({ note_id: 'other', version: 9 });
    expect(be.gets).toBe(1);
    be.note.tabs[0].text = 'agent';
    be.note.version = 2;
    await ed.changed({ note_id: 'n1', version: 2 });
    expect(be.gets).toBe(2);
    expect(ed.texts.t1.text).toBe('agent');
    expect(ed.version).toBe(2);
  });

  it('keeps unsaved typing when the agent writes the same tab', async () => {
    const { be, ed } = await open();
    ed.texts.t1.input('hello\ntyping');
    be.note.tabs[0].text = 'hello\nagent';
    be.note.version = 2;
    await ed.changed({ note_id: 'n1', version: 2 });
    expect(ed.texts.t1.text).toBe('hello\ntyping');
    expect(ed.texts.t1.conflict?.reason).toBe('remote');
    expect(ed.dirty).toBe(true);
  });

  it('adds a tab after catching up with a change it had not seen', async () => {
    const { be, ed } = await open();
    be.note.version = 5; // someone else wrote meanwhile
    expect(await ed.addTab('text', 'Text 2')).toBe(true);
    expect(ed.note?.tabs.map((t) => t.tab_id)).toEqual(['t1', 's1', 't3']);
    expect(ed.selected).toBe('t3');
    expect(ed.texts.t3.baseVersion).toBe(6);
  });
});

describe('where a Note is', () => {
  it('names a Synced project by its team workspace, on every desktop alike', async () => {
    const overview = {
      workspaces: [{ id: 'default', name: 'Personal' }],
      projects: [{ id: 'p1', workspace_id: 'default', name: 'Launch plan' }, { id: 'p2', workspace_id: 'default', name: 'Diary' }],
      notes: [],
    };
    const api = { ...notesApi, overview: async () => structuredClone(overview) } as unknown as typeof notesApi;
    const drafts = new DraftStore(new MemDrafts(), new MemStorage());
    const s = new NotesState(api, drafts, async () => ({ p1: 'Team' }));
    await s.refresh();
    const info = (project: string) => ({ note_id: 'n', workspace_id: 'default', project_id: project }) as unknown as NoteInfo;
    expect(s.where(info('p1'))).toBe('Team · Launch plan');
    expect(s.where(info('p2'))).toBe('Personal · Diary');
    // Offline or not signed in: the names held stay; none held, the local ones.
    const alone = new NotesState(api, drafts, async () => { throw new Error('not signed in'); });
    await alone.refresh();
    expect(alone.where(info('p1'))).toBe('Personal · Launch plan');
  });
});
