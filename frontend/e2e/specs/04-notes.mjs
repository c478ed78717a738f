import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { until, assert } from '../lib.mjs';

// Notes end to end: the person writes a Note while an agent edits it from
// another process (`osfoundry notes tool`, the same handler the bridge and
// the Connected endpoint run). A clean editor follows live; unsaved typing
// is never clobbered; a refused save keeps a draft that survives a reload;
// compare shows both sides and re-apply saves with no lost line. Then the
// Sheet grid: edit a cell, save, the version moves.
const run = promisify(execFile);
const bin = resolve(process.argv[2] ?? '../build/bin/osfoundry-dev');

export default async function ({ page, base, env, shot }) {
  // Hold the app's notes:changed events when asked, as a slow connection
  // would: the person's save then races the agent's write for real.
  let hold = false;
  await page.routeWebSocket('**/wails/ipc', (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      if (!(hold && typeof m === 'string' && m.startsWith('n') && m.includes('"notes:changed"'))) ws.send(m);
    });
  });

  await page.goto(base + '/#/notes');
  await page.locator('[data-route="/notes"]').waitFor();
  await page.getByRole('button', { name: '+ New note' }).click();
  await page.getByLabel('Title').fill('E2E launch plan');
  await shot('notes-new');
  await page.getByRole('button', { name: 'Create note' }).click();
  const view = page.locator('[data-note-view]');
  await view.waitFor();
  const noteId = await view.getAttribute('data-note-view');
  // A note with one tab shows no tab bar; its body names the tab.
  const tabId = await until('the text tab', () => page.locator('[data-note-tab]').getAttribute('data-note-tab'));
  assert((await page.locator('[role="tablist"][aria-label="Tabs"]').count()) === 0, 'a note with one tab should show no tab bar');
  const workspace = await until('the note in the list', async () => {
    const ws = await page.evaluate(async (id) => (await window.go.notes.Binding.GetNote(id)).workspace_id, noteId);
    return ws || null;
  });

  const tool = async (name, args) => {
    try {
      const { stdout } = await run(bin, ['notes', 'tool', '-workspace', workspace, name, JSON.stringify(args)], { env });
      return JSON.parse(stdout);
    } catch (e) {
      if (e.stdout) return JSON.parse(e.stdout); // a refusal (version_conflict) is a result
      throw e;
    }
  };
  let keys = 0;
  // The agent does what the tool description asks: read, re-apply its
  // change to the current text, write with that version and a new key.
  const agentAppends = async (line) => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cur = await tool('read_note_tab', { note_id: noteId, tab_id: tabId });
      const r = await tool('edit_note_tab', {
        note_id: noteId, tab_id: tabId, expected_version: cur.version, idempotency_key: `e2e-agent-${++keys}`,
        operation: 'replace_text', text: cur.text + '\n' + line,
      });
      if (r.status === 'saved') return r.version;
    }
    throw new Error('the agent could not write in 3 tries');
  };
  const stored = async () => (await tool('read_note_tab', { note_id: noteId, tab_id: tabId })).text;
  const editor = page.getByLabel('Note text');
  const status = page.locator('[data-save-status]');
  const version = () => page.locator('[data-note-version]').textContent();

  // 1. Type and save.
  await editor.click();
  await page.keyboard.type('# Launch plan\n- person line 1');
  await until('the unsaved status', async () => (await status.textContent()).startsWith('Unsaved changes'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await until('the save', async () => (await status.textContent()) === 'Saved' && (await version()) === 'version 2');
  assert((await stored()) === '# Launch plan\n- person line 1', 'the text tab holds what the person saved');

  // 2. A clean editor follows the agent live.
  await agentAppends('- agent line 1');
  await until('the agent line in the clean editor', async () => (await editor.inputValue()).endsWith('- agent line 1'));
  assert((await page.locator('[data-sync-error]').count()) === 0, 'a clean editor reloads silently');

  // 3. Unsaved typing is kept when the agent writes; the banner says so.
  await editor.press('End');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n- person line 2');
  await agentAppends('- agent line 2');
  const remote = page.locator('[data-sync-error="remote"]');
  await remote.waitFor();
  assert((await remote.textContent()).includes('This note changed while you were editing'), 'the remote-change banner text');
  assert((await editor.inputValue()).endsWith('- person line 2'), 'the typing is not clobbered');
  await shot('notes-remote-change');
  await page.getByRole('button', { name: 'Re-apply my change' }).click();
  await until('the re-applied save', async () => (await status.textContent()) === 'Saved');
  for (const l of ['person line 1', 'agent line 1', 'person line 2', 'agent line 2']) assert((await stored()).includes(l), `stored text keeps "${l}"`);

  // 4. The person saves after the agent wrote but before the app heard of it.
  hold = true;
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n- person line 3');
  await agentAppends('- agent line 3');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const syncError = page.locator('[data-sync-error="save"]');
  await syncError.waitFor();
  assert((await syncError.textContent()).includes('Sync error: not saved'), 'the sync error banner text');
  assert(!(await stored()).includes('person line 3'), 'a refused save writes nothing');
  // The draft as the app's database keeps it (NotesBinding.Drafts).
  const kept = async () => {
    const d = (await page.evaluate(() => window.go.notes.Binding.Drafts())).find((x) => x.owner_id === noteId && x.item_id === tabId);
    return d ? JSON.parse(d.data) : null;
  };
  await until('the person\'s text kept as a draft', async () => (await kept())?.mine.endsWith('- person line 3'));
  hold = false;

  // 5. The draft survives a reload; compare shows both sides.
  await page.reload();
  await page.locator('[data-sync-error="save"]').waitFor();
  assert((await page.getByLabel('Note text').inputValue()).endsWith('- person line 3'), 'the draft is back after a reload');
  await page.getByRole('button', { name: 'Compare' }).click();
  const mineSide = await page.locator('[data-compare] [data-side="mine"]').allTextContents();
  const currentSide = await page.locator('[data-compare] [data-side="current"]').allTextContents();
  assert(mineSide.some((t) => t.includes('person line 3')) && !mineSide.some((t) => t.includes('agent line 3')), 'compare: your draft');
  assert(currentSide.some((t) => t.includes('agent line 3')) && !currentSide.some((t) => t.includes('person line 3')), 'compare: the current version');
  await shot('notes-conflict-compare');

  // 6. Re-apply saves with no lost line, and the draft is gone.
  await page.getByRole('button', { name: 'Re-apply my change' }).click();
  await until('the re-applied save', async () => (await page.locator('[data-save-status]').textContent()) === 'Saved');
  const final = (await stored()).split('\n');
  const want = ['# Launch plan', ...[1, 2, 3].flatMap((i) => [`- person line ${i}`, `- agent line ${i}`])];
  const lost = want.filter((l) => !final.includes(l));
  assert(lost.length === 0, `lost lines after re-apply: ${JSON.stringify(lost)} in ${JSON.stringify(final)}`);
  await until('the draft removed once saved', async () => (await kept()) === null);
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.locator('[data-preview] h1', { hasText: 'Launch plan' }).waitFor();
  await shot('notes-text');

  // 7. Sheet grid: add a Sheet tab, edit a cell, save, the version moves.
  await page.getByRole('button', { name: 'Add tab' }).click();
  await page.getByRole('menuitem', { name: 'Sheet' }).click();
  const cell = page.getByLabel('B2', { exact: true });
  await cell.waitFor();
  const before = Number((await version()).replace('version ', ''));
  await cell.click();
  await page.keyboard.type('42');
  await page.keyboard.press('Enter');
  await until('the changed-cell status', async () => (await page.locator('[data-save-status]').textContent()).startsWith('1 changed cell'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await until('the sheet save', async () => (await page.locator('[data-save-status]').textContent()) === 'Saved');
  await until('the version bump', async () => (await version()) === `version ${before + 1}`);
  const sheetTab = await page.locator('[data-tab][data-kind="sheet"]').getAttribute('data-tab');
  const range = await tool('read_sheet_range', { note_id: noteId, tab_id: sheetTab, start_row: 1, start_col: 1, row_count: 1, col_count: 1 });
  assert(JSON.stringify(range).includes('42'), `the stored sheet holds 42 at B2: ${JSON.stringify(range)}`);

  // The agent fills C3; the clean grid shows it without a reload.
  const w = await tool('edit_note_tab', {
    note_id: noteId, tab_id: sheetTab, expected_version: range.version, idempotency_key: `e2e-agent-${++keys}`,
    operation: 'sheet_set_range', sheet_id: 'sheet-1', start_row: 2, start_col: 2, values: [['from the agent']],
  });
  assert(w.status === 'saved', `the agent's sheet write: ${JSON.stringify(w)}`);
  await until('the agent cell in the grid', async () => (await page.getByLabel('C3', { exact: true }).inputValue()) === 'from the agent');
  assert((await page.getByLabel('B2', { exact: true }).inputValue()) === '42', 'the person\'s saved cell stays');
  await shot('notes-sheet');

  // 8. An agent adds a Source: the tab appears live and is shown read-only.
  const cur = await tool('list_note_tabs', { note_id: noteId });
  const src = await tool('add_note_source', {
    note_id: noteId, expected_version: cur.version, idempotency_key: `e2e-agent-${++keys}`,
    title: 'Pricing research', url: 'https://example.com/pricing', content: 'Competitors charge 12 to 20 per seat.',
  });
  assert(src.status === 'saved' || src.tab_id, `add_note_source: ${JSON.stringify(src)}`);
  const srcTab = page.locator('[data-tab][data-kind="source"]');
  await srcTab.waitFor();
  await srcTab.click();
  await page.getByText('Competitors charge 12 to 20 per seat.').waitFor();
  assert((await page.locator('[data-note-view] textarea, [data-note-view] [data-cell]').count()) === 0, 'a Source has no editor');
  await shot('notes-source');

  // 9. An agent builds Slides: shown read-only, each slide's Markdown rendered.
  const v = (await tool('list_note_tabs', { note_id: noteId })).version;
  const made = await tool('create_note_tab', { note_id: noteId, expected_version: v, idempotency_key: `e2e-agent-${++keys}`, kind: 'slides', title: 'Deck' });
  assert(made.status === 'created', `create_note_tab: ${JSON.stringify(made)}`);
  const outline = await tool('edit_note_tab', {
    note_id: noteId, tab_id: made.tab_id, expected_version: made.version, idempotency_key: `e2e-agent-${++keys}`,
    operation: 'slides_add_outline', outline: [{ title: 'Why now', body: '- **seats** are cheap' }, { title: 'Plan', body: '1. ship' }],
  });
  assert(outline.status === 'saved', `slides_add_outline: ${JSON.stringify(outline)}`);
  await page.locator(`[data-tab="${made.tab_id}"]`).click();
  await page.getByRole('heading', { name: 'Why now' }).waitFor();
  await page.locator('.slide strong', { hasText: 'seats' }).waitFor();
  assert((await page.locator('.slide').count()) === 2, 'both slides are shown');
}
