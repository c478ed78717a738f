import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SaveResult, SheetData } from '../api/notes';
import { DRAFT_DELAY_MS, DraftStore } from './drafts';
import { MemDrafts, MemStorage } from './drafts.testkit';
import { diffLines, merge3, lostLines, splitLines } from './merge';
import { TextTabState } from './text.svelte';
import { SheetTabState, colName, parseCell } from './sheet.svelte';

/** FakeNote is the backend's rule in miniature: one Note version, conditional saves. */
class FakeNote {
  version = 1;
  texts: Record<string, string> = { t1: '', t2: '' };
  sheet: SheetData = { sheets: [{ id: 's1', name: 'Sheet 1', cells: [] }] };
  saves = 0;
  save(tab: string, expected: number, text: string): SaveResult {
    this.saves++;
    if (expected !== this.version) return { saved: false, version: this.version, tab_version: 0, current: { tab_id: tab, kind: 'text', title: '', position: 0, tab_version: 0, updated_at: '', text: this.texts[tab] } };
    this.texts[tab] = text;
    return { saved: true, version: ++this.version, tab_version: 0 };
  }
  saveSheet(expected: number, d: SheetData): SaveResult {
    if (expected !== this.version) return { saved: false, version: this.version, tab_version: 0, current: { tab_id: 'sh', kind: 'sheet', title: '', position: 0, tab_version: 0, updated_at: '', sheet: structuredClone(this.sheet) } };
    this.sheet = structuredClone(d);
    return { saved: true, version: ++this.version, tab_version: 0 };
  }
  /** agent writes a tab the way edit_note_tab does */
  agent(tab: string, text: string) {
    this.texts[tab] = text;
    this.version++;
  }
}

function setup(initial = 'line one') {
  const srv = new FakeNote();
  srv.texts.t1 = initial;
  const backend = new MemDrafts();
  const drafts = new DraftStore(backend, new MemStorage());
  const open = () => {
    const ed = new TextTabState('n1', 't1', drafts, async (v, text) => srv.save('t1', v, text));
    ed.load(srv.texts.t1, srv.version);
    return ed;
  };
  return { srv, backend, drafts, open, ed: open() };
}

describe('merge3', () => {
  it.each([
    { name: 'both append', base: 'a', mine: 'a\nperson', theirs: 'a\nagent', want: 'a\nagent\nperson', conflicts: 1 },
    { name: 'different lines', base: 'a\nb\nc\nd', mine: 'A\nb\nc\nd', theirs: 'a\nb\nc\nD', want: 'A\nb\nc\nD', conflicts: 0 },
    { name: 'same change', base: 'a', mine: 'b', theirs: 'b', want: 'b', conflicts: 0 },
    { name: 'only mine', base: 'a\nb', mine: 'a\nx\nb', theirs: 'a\nb', want: 'a\nx\nb', conflicts: 0 },
    { name: 'only theirs', base: 'a\nb', mine: 'a\nb', theirs: 'b', want: 'b', conflicts: 0 },
    { name: 'same line changed', base: 'a\nb\nc', mine: 'a\nB1\nc', theirs: 'a\nB2\nc', want: 'a\nB2\nB1\nc', conflicts: 1 },
    { name: 'empty base', base: '', mine: 'mine', theirs: 'theirs', want: 'theirs\nmine', conflicts: 1 },
  ])('$name', ({ base, mine, theirs, want, conflicts }) => {
    const r = merge3(base, mine, theirs);
    expect(r.text).toBe(want);
    expect(r.conflicts).toBe(conflicts);
  });

  it('never loses a line either side added (random edits, fixed seed)', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const edit = (lines: string[], tag: string) => {
      const out = [...lines];
      for (let k = 0, n = 1 + rnd(4); k < n; k++) {
        const at = rnd(out.length + 1);
        if (rnd(3) === 0 && out.length) out[Math.min(at, out.length - 1)] = `${tag}-edit-${k}-${rnd(1000)}`;
        else out.splice(at, 0, `${tag}-add-${k}-${rnd(1000)}`);
      }
      return out;
    };
    for (let run = 0; run < 300; run++) {
      const base = Array.from({ length: rnd(12) }, (_, i) => `base-${i}`);
      const mine = edit(base, 'p');
      const theirs = edit(base, 'a');
      const got = merge3(base.join('\n'), mine.join('\n'), theirs.join('\n')).text;
      const added = (side: string[]) => side.filter((l) => !base.includes(l)).join('\n');
      expect(lostLines(added(mine), got), `run ${run}`).toBe(0);
      expect(lostLines(added(theirs), got), `run ${run}`).toBe(0);
    }
  });
});

describe('TextTabState', () => {
  it('saves against the version it saw and clears the draft', async () => {
    const { srv, ed, drafts } = setup();
    ed.input('line one\nmine');
    expect(drafts.get('n1', 't1')).toMatchObject({ mine: 'line one\nmine', baseVersion: 1 });
    expect(await ed.save()).toBe(true);
    expect(srv.texts.t1).toBe('line one\nmine');
    expect(ed.baseVersion).toBe(2);
    expect(ed.dirty).toBe(false);
    expect(drafts.get('n1', 't1')).toBeNull();
  });

  it('keeps the text as a draft on a conflict, and the draft survives a reload', async () => {
    const { srv, ed, open } = setup();
    ed.input('line one\nperson');
    srv.agent('t1', 'line one\nagent');
    expect(await ed.save()).toBe(false);
    expect(srv.texts.t1).toBe('line one\nagent');
    expect(ed.conflict).toMatchObject({ reason: 'save', current: 'line one\nagent', currentVersion: 2 });
    expect(ed.text).toBe('line one\nperson');

    const again = open(); // a reload: new state, same drafts, server as it is now
    expect(again.text).toBe('line one\nperson');
    expect(again.conflict).toMatchObject({ reason: 'save', current: 'line one\nagent', currentVersion: 2 });
  });

  it('keeps a draft even when the stored Note is older than it (a restored database)', () => {
    const { srv, drafts, open } = setup('restored');
    drafts.put('n1', 't1', { kind: 'text', base: 'later', baseVersion: 9, mine: 'later\nmine', savedAt: 0 }, () => {});
    const ed = open();
    expect(ed.text).toBe('later\nmine');
    expect(ed.conflict).toMatchObject({ current: 'restored', currentVersion: srv.version });
  });

  it('re-apply merges onto the current text and saves with no lost lines', async () => {
    const { srv, ed, drafts } = setup();
    ed.input('line one\nperson 1\nperson 2');
    srv.agent('t1', 'line one\nagent 1');
    await ed.save();
    const m = await ed.reapply();
    expect(m?.conflicts).toBe(1);
    expect(lostLines('line one\nperson 1\nperson 2\nagent 1', srv.texts.t1)).toBe(0);
    expect(ed.conflict).toBeNull();
    expect(ed.dirty).toBe(false);
    expect(ed.baseVersion).toBe(srv.version);
    expect(drafts.get('n1', 't1')).toBeNull();
  });

  it('keep mine saves the draft against the new version explicitly', async () => {
    const { srv, ed } = setup();
    ed.input('mine only');
    srv.agent('t1', 'agent only');
    await ed.save();
    expect(await ed.keepMine()).toBe(true);
    expect(srv.texts.t1).toBe('mine only');
    expect(srv.version).toBe(3);
  });

  it('discard takes the current text and drops the draft', async () => {
    const { srv, ed, drafts } = setup();
    ed.input('mine');
    srv.agent('t1', 'agent');
    await ed.save();
    ed.discard();
    expect(ed.text).toBe('agent');
    expect(ed.dirty).toBe(false);
    expect(drafts.get('n1', 't1')).toBeNull();
  });

  it('a clean editor follows an agent write silently', () => {
    const { srv, ed } = setup();
    srv.agent('t1', 'agent wrote');
    ed.server(srv.texts.t1, srv.version);
    expect(ed.text).toBe('agent wrote');
    expect(ed.conflict).toBeNull();
    expect(ed.baseVersion).toBe(2);
  });

  it('a dirty editor keeps the typing and reports the change', () => {
    const { srv, ed } = setup();
    ed.input('typing');
    srv.agent('t1', 'agent wrote');
    ed.server(srv.texts.t1, srv.version);
    expect(ed.text).toBe('typing');
    expect(ed.conflict).toMatchObject({ reason: 'remote', current: 'agent wrote' });
  });

  it('a change to another tab only moves the version (no banner)', async () => {
    const { srv, ed } = setup();
    ed.input('typing');
    srv.agent('t2', 'other tab');
    ed.server(srv.texts.t1, srv.version);
    expect(ed.conflict).toBeNull();
    expect(ed.baseVersion).toBe(2);
    expect(await ed.save()).toBe(true);
    expect(srv.texts.t1).toBe('typing');
  });

  it('a save refused only because another tab changed is retried', async () => {
    const { srv, ed } = setup();
    ed.input('typing');
    srv.agent('t2', 'other tab'); // no event reached the editor yet
    expect(await ed.save()).toBe(true);
    expect(srv.texts.t1).toBe('typing');
    expect(srv.saves).toBe(2);
  });

  it('a change announced while saving waits for the save', async () => {
    const srv = new FakeNote();
    const drafts = new DraftStore(new MemDrafts(), new MemStorage());
    let release!: () => void;
    const ed = new TextTabState('n1', 't1', drafts, (v, text) =>
      new Promise((ok) => (release = () => ok(srv.save('t1', v, text)))));
    ed.load('', 1);
    ed.input('first');
    const p = ed.save();
    ed.input('first and more'); // typing continues during the save
    ed.server('first', 2); // the save's own notes:changed arrives before its reply
    release();
    await p;
    expect(ed.conflict).toBeNull();
    expect(ed.text).toBe('first and more');
    expect(ed.base).toBe('first');
    expect(ed.baseVersion).toBe(2);
  });
});

describe('SheetTabState', () => {
  const sheetSetup = () => {
    const srv = new FakeNote();
    const drafts = new DraftStore(new MemDrafts(), new MemStorage());
    const open = () => {
      const s = new SheetTabState('n1', 'sh', drafts, async (v, d) => srv.saveSheet(v, d));
      s.load(structuredClone(srv.sheet), srv.version);
      return s;
    };
    return { srv, drafts, open, ed: open() };
  };

  it('edits a cell, saves and bumps the version', async () => {
    const { srv, ed } = sheetSetup();
    ed.setCell('s1', 1, 2, '42');
    expect(ed.cell('s1', 1, 2)).toBe(42);
    expect(await ed.save()).toBe(true);
    expect(srv.sheet.sheets[0].cells[1][2]).toBe(42);
    expect(ed.baseVersion).toBe(2);
    expect(ed.dirty).toBe(false);
  });

  it('keeps the person\'s cells when the agent changed other cells', async () => {
    const { srv, ed } = sheetSetup();
    ed.setCell('s1', 0, 0, 'mine');
    srv.sheet.sheets[0].cells = [[null, 'agent']];
    srv.version++;
    expect(await ed.save()).toBe(true);
    expect(srv.sheet.sheets[0].cells[0]).toEqual(['mine', 'agent']);
  });

  it('reports a clash on the same cell, keeps a draft across reloads, and re-applies', async () => {
    const { srv, ed, open } = sheetSetup();
    ed.setCell('s1', 0, 0, 'mine');
    srv.sheet.sheets[0].cells = [['agent', 'agent b']];
    srv.version++;
    expect(await ed.save()).toBe(false);
    expect(ed.conflicting().map((e) => e.value)).toEqual(['mine']);
    const again = open();
    expect(again.conflict?.reason).toBe('save');
    expect(again.cell('s1', 0, 0)).toBe('mine');
    expect(await again.reapply()).toBe(true);
    expect(srv.sheet.sheets[0].cells[0]).toEqual(['mine', 'agent b']);
  });

  it('names columns and parses typed values', () => {
    expect([colName(0), colName(25), colName(26), colName(701)]).toEqual(['A', 'Z', 'AA', 'ZZ']);
    expect([parseCell(''), parseCell('12.5'), parseCell('-3'), parseCell('1e3'), parseCell('12 apples')]).toEqual([null, 12.5, -3, 1000, '12 apples']);
  });
});

describe('DraftStore', () => {
  afterEach(() => vi.useRealTimers());

  it('drops a corrupt kept draft and lists Notes with drafts', async () => {
    const backend = new MemDrafts();
    backend.rows.set('n1/t1', { owner_id: 'n1', item_id: 't1', data: '{not json', saved_at: '' });
    const d = new DraftStore(backend, new MemStorage(), 0);
    await d.ready();
    expect(d.get('n1', 't1')).toBeNull();
    d.put('n2', 't1', { kind: 'text', base: '', baseVersion: 1, mine: 'x', savedAt: 0 }, () => {});
    expect([...d.noteIds()]).toEqual(['n2']);
    await new Promise((r) => setTimeout(r, 0));
    await d.flush();
    expect([...backend.rows.keys()]).toEqual(['n2/t1']);
  });

  it('keeps the draft in the app database once the person pauses, and a restart finds it', async () => {
    vi.useFakeTimers();
    const srv = new FakeNote();
    srv.texts.t1 = 'line one';
    const backend = new MemDrafts();
    const drafts = new DraftStore(backend, new MemStorage());
    await drafts.ready();
    const ed = new TextTabState('n1', 't1', drafts, async (v, text) => srv.save('t1', v, text));
    ed.load(srv.texts.t1, srv.version);
    for (const ch of '\nmine') ed.input(ed.text + ch);
    await vi.advanceTimersByTimeAsync(DRAFT_DELAY_MS - 50);
    expect(backend.calls.filter((c) => c.startsWith('save'))).toEqual([]); // still typing
    await vi.advanceTimersByTimeAsync(100);
    expect(backend.calls.filter((c) => c.startsWith('save'))).toEqual(['save n1/t1']); // one write for the burst
    expect(backend.mine('n1', 't1')).toBe('line one\nmine');

    // The app is killed and starts again: a new store over the same database.
    const after = new DraftStore(backend, new MemStorage());
    await after.ready();
    const again = new TextTabState('n1', 't1', after, async (v, text) => srv.save('t1', v, text));
    again.load(srv.texts.t1, srv.version);
    expect(again.text).toBe('line one\nmine');
    expect(again.base).toBe('line one');
    expect(again.dirty).toBe(true);
    expect(again.conflict).toBeNull();

    // Saved: the draft leaves the database.
    expect(await again.save()).toBe(true);
    await vi.runAllTimersAsync();
    expect(backend.rows.size).toBe(0);
  });

  it('a discard never overtakes the save before it', async () => {
    const backend = new MemDrafts();
    let release!: () => void;
    const slowSave = backend.save.bind(backend);
    backend.save = async (o, i, d) => {
      await new Promise<void>((r) => (release = r));
      return slowSave(o, i, d);
    };
    const drafts = new DraftStore(backend, new MemStorage(), 0);
    await drafts.ready();
    drafts.put('n1', 't1', { kind: 'text', base: '', baseVersion: 1, mine: 'x', savedAt: 0 }, () => {});
    await new Promise((r) => setTimeout(r, 5)); // the save is on its way
    drafts.remove('n1', 't1');
    const done = new Promise((r) => setTimeout(r, 5)).then(() => release()).then(() => drafts.flush());
    await done;
    await drafts.flush();
    expect(backend.calls).toEqual(['list', 'save n1/t1', 'discard n1/t1']);
    expect(backend.rows.size).toBe(0);
  });

  it('moves drafts an older version kept in localStorage into the database', async () => {
    const backend = new MemDrafts();
    const legacy = new MemStorage();
    legacy.setItem('osfoundry.notes.draft.n1.t1', JSON.stringify({ kind: 'text', base: 'a', baseVersion: 3, mine: 'a\nold', savedAt: 1 }));
    legacy.setItem('osfoundry.notes.draft.n2.t1', '{broken');
    legacy.setItem('unrelated', 'stays');
    const drafts = new DraftStore(backend, legacy);
    await drafts.ready();
    await drafts.flush();
    expect(drafts.get('n1', 't1')).toMatchObject({ mine: 'a\nold', baseVersion: 3 });
    expect(backend.mine('n1', 't1')).toBe('a\nold');
    expect(legacy.length).toBe(1);
    expect(legacy.getItem('unrelated')).toBe('stays');
  });

  it('says why a draft could not be kept', async () => {
    const backend = new MemDrafts();
    const drafts = new DraftStore(backend, new MemStorage(), 0);
    await drafts.ready();
    const ed = new TextTabState('n1', 't1', drafts, async () => ({ saved: true, version: 2, tab_version: 0 }));
    ed.load('a', 1);
    backend.fail = 'the disk holding the osFoundry data folder is full';
    ed.input('a\nb');
    await new Promise((r) => setTimeout(r, 5));
    await drafts.flush();
    expect(ed.error).toBe('Your draft could not be kept on this computer (the disk holding the osFoundry data folder is full). Save or copy your text.');
  });
});

describe('diffLines', () => {
  it('finds the changed lines of two long texts changed at both ends', () => {
    // 2,500 lines each, first and last changed: the compare view shows two
    // changed lines, not the whole tab removed and added again.
    const a = Array.from({ length: 2500 }, (_, i) => `line ${i}`);
    const b = [...a];
    b[0] = 'first, edited';
    b[2499] = 'last, edited';
    const ops = diffLines(a, b);
    expect(ops.filter((d) => d.op !== 'eq')).toEqual([
      { op: 'del', line: 'line 0' },
      { op: 'ins', line: 'first, edited' },
      { op: 'del', line: 'line 2499' },
      { op: 'ins', line: 'last, edited' },
    ]);
    expect(ops.filter((d) => d.op === 'eq')).toHaveLength(2498);
  });

  it('keeps equal lines in order between changes', () => {
    expect(diffLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toEqual([
      { op: 'eq', line: 'a' },
      { op: 'del', line: 'b' },
      { op: 'ins', line: 'x' },
      { op: 'eq', line: 'c' },
      { op: 'ins', line: 'd' },
    ]);
  });

  it('splits lines the way the merge counts them', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\n')).toEqual(['a', '']);
  });
});

describe('a synced edit that lost on the team server', () => {
  // The desktop saved "mine" locally (v2); the server already had "theirs"
  // at v2, so the replica kept "mine" as a draft over the text it started
  // from (v1) and put the server's copy in place (v3 here). The open editor
  // hears of both, in either order.
  const kept = JSON.stringify({ kind: 'text', base: 'line one', baseVersion: 1, mine: 'line one\nmine', savedAt: 1 });

  it.each([
    ['the draft first, then the new text', true],
    ['the new text first, then the draft', false],
  ])('%s: compare / re-apply, the person\'s text intact', async (_, draftFirst) => {
    const { srv, drafts, ed } = setup('line one');
    await drafts.ready();
    srv.agent('t1', 'line one'); // the local save of "mine" and its replacement: the editor is clean at v2
    ed.server('line one', 2);
    srv.agent('t1', 'line one\ntheirs');
    const arrive = () => {
      drafts.adopt('n1', 't1', kept);
      ed.adoptDraft();
    };
    if (draftFirst) arrive();
    ed.server(srv.texts.t1, srv.version);
    if (!draftFirst) arrive();
    expect(ed.text).toBe('line one\nmine');
    expect(ed.conflict).toMatchObject({ current: 'line one\ntheirs', currentVersion: srv.version });
    // Re-apply keeps both lines and saves against the current version.
    const m = await ed.reapply();
    expect(m?.text).toBe('line one\ntheirs\nmine');
    expect(srv.texts.t1).toBe('line one\ntheirs\nmine');
  });

  it('the editor holds its own lost save at the version the server\'s copy comes with: compare / re-apply', async () => {
    const { srv, drafts, ed } = setup('line one');
    await drafts.ready();
    // Saved here offline: "mine" at v2, the editor clean over it.
    srv.agent('t1', 'line one\nmine');
    ed.server(srv.texts.t1, srv.version);
    expect(ed.dirty).toBe(false);
    drafts.adopt('n1', 't1', kept);
    ed.adoptDraft();
    expect(ed.text).toBe('line one\nmine');
    expect(ed.dirty).toBe(true); // not taken for the current text
    // The server's copy, put in place at the same version 2.
    ed.server('line one\ntheirs', 2);
    expect(ed.conflict).toMatchObject({ current: 'line one\ntheirs', currentVersion: 2 });
    expect(ed.text).toBe('line one\nmine');
    expect(drafts.get('n1', 't1')).toMatchObject({ mine: 'line one\nmine' });
  });

  it('a draft the person is typing wins over one the backend kept', async () => {
    const { drafts, ed } = setup('line one');
    await drafts.ready();
    ed.input('line one\ntyping now');
    expect(drafts.adopt('n1', 't1', kept)).toBe(false);
    ed.adoptDraft();
    expect(ed.text).toBe('line one\ntyping now');
  });
});
