import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until, assert, goCall, freePort, waitHTTP } from '../lib.mjs';

// A draft survives the app being killed. A second copy of the app runs on a
// data folder of its own. The person creates a Note and types into it without
// saving; once they pause, the app is killed with SIGKILL (no chance to
// flush anything) and started again, and the window's browser storage is a
// fresh one (as WebKit's is when its late write never happened). Checks: the
// Notes list marks the Note "draft"; opening it shows the typed text, not
// the stored one, as unsaved; saving it stores exactly that text and the
// draft is gone from the app, so a third start opens a clean Note.
const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.env.OSF_E2E_DIST ?? resolve(here, '../../dist'));

/** startApp runs the dev build on data; kill() SIGKILLs it, quit() ends it with SIGTERM. */
async function startApp(bin, env, data) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = spawn('xvfb-run', ['-a', '-s', '-screen 0 1280x820x24', bin, '-devserver', `127.0.0.1:${port}`, '-assetdir', dist], {
    env: { ...env, OSFOUNDRY_HOME: data },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  app.stderr.on('data', (d) => (log += d));
  const exited = new Promise((ok) => app.once('exit', ok));
  await waitHTTP(base + '/', 60000).catch((e) => {
    throw new Error(`${e.message}\n${log.slice(-2000)}`);
  });
  const signal = async (sig) => {
    try {
      process.kill(-app.pid, sig);
    } catch {}
    return Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 15000))]);
  };
  return {
    base,
    kill: () => signal('SIGKILL'),
    quit: async () => (await signal('SIGTERM')) || (await signal('SIGKILL')),
  };
}

export default async function ({ page, tmp, env, bin, shot }) {
  const browser = page.context().browser();
  const data = join(tmp, 'draft-kill-data');
  const typed = '# Packing list\n- passport\n- charger for the laptop';
  let app = await startApp(bin, env, data);
  let ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    let p = await ctx.newPage();
    await p.goto(app.base + '/#/notes');
    await p.getByRole('button', { name: '+ New note' }).click();
    await p.getByLabel('Title').fill('Trip to Lisbon');
    await p.getByRole('button', { name: 'Create note' }).click();
    const noteId = await p.locator('[data-note-view]').getAttribute('data-note-view');
    await p.getByLabel('Note text').click();
    await p.keyboard.type(typed);
    await until('the unsaved status', async () => (await p.locator('[data-save-status]').textContent()).startsWith('Unsaved changes'));
    // The person pauses; the editor hands the draft to the app meanwhile.
    // (No assert here: an app that keeps drafts elsewhere fails below.)
    const held = (owner) => until(`the app to hold the draft of ${owner}`, async () => {
      try {
        return (await goCall(p, 'notes.Binding.Drafts')).some((d) => d.owner_id === owner);
      } catch {
        return false;
      }
    }, 15000).catch(() => {});
    await held(noteId);

    // The same for a knowledge article (its editor is the Notes editor).
    await p.goto(app.base + '/#/knowledge');
    await p.getByRole('button', { name: '+ New', exact: true }).click();
    await p.getByLabel('Name').fill('Travel');
    await p.getByRole('button', { name: 'Create knowledge base' }).click();
    const kb = await until('the kb in the route', async () => new URL(p.url().replace('#/', '')).searchParams.get('kb'));
    await p.getByRole('button', { name: '+ New article' }).click();
    await p.getByLabel('Title').fill('Visas');
    await p.getByLabel('Text (Markdown)').fill('# Visas');
    await p.getByRole('button', { name: 'Add article' }).click();
    const art = await p.locator('[data-article-view]').getAttribute('data-article-view');
    const articleTyped = '# Visas\n- none needed for Portugal';
    await p.getByLabel('Article text').fill(articleTyped);
    await until('the article\'s unsaved status', async () => (await p.locator('[data-save-status]').textContent()).startsWith('Unsaved changes'));
    await held(kb);

    // And for a Record item's body.
    await p.goto(app.base + '/#/records');
    await p.getByRole('button', { name: '+ New channel' }).click();
    await p.getByLabel('Name').fill('Trip tasks');
    await p.getByLabel('Statuses, in board order, separated by commas').fill('Todo, Done');
    await p.getByRole('button', { name: 'Create channel' }).click();
    const channel = await p.locator('[data-record-board]').getAttribute('data-record-board');
    await p.getByLabel('New record title').fill('Book flights');
    await p.getByRole('button', { name: 'Add record' }).click();
    const record = await p.locator('[data-record-view]').getAttribute('data-record-view');
    const recordTyped = 'Window seat, leaving Friday evening';
    await p.getByLabel('Record body').fill(recordTyped);
    await until('the record\'s unsaved status', async () => (await p.locator('[data-save-status]').textContent()).startsWith('Unsaved changes'));
    await held(channel);
    assert(await app.kill(), 'the app should end on SIGKILL');
    await ctx.close();

    app = await startApp(bin, env, data);
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    p = await ctx.newPage();
    await p.goto(app.base + '/#/notes');
    const item = p.locator(`[data-note="${noteId}"]`);
    await item.waitFor();
    await until('the draft mark in the Notes list', async () => (await item.locator('.draft').count()) === 1, 15000).catch(async () => {
      throw new Error(`after the kill the Notes list shows "${(await item.textContent()).trim()}", without the draft mark`);
    });
    await item.click();
    const editor = p.getByLabel('Note text');
    await until('the draft in the editor', async () => (await editor.inputValue()) === typed, 15000).catch(async () => {
      throw new Error(`after the kill the editor shows ${JSON.stringify(await editor.inputValue())}, want the typed draft`);
    });
    const status = p.locator('[data-save-status]');
    assert((await status.textContent()) === 'Unsaved changes · draft kept on this computer', `status after restart: ${await status.textContent()}`);
    await shot('draft-after-kill');

    await p.getByRole('button', { name: 'Save', exact: true }).click();
    await until('the save', async () => (await status.textContent()) === 'Saved');
    const stored = await goCall(p, 'notes.Binding.GetNote', noteId);
    assert(stored.tabs[0].text === typed, `stored text: ${JSON.stringify(stored.tabs[0].text)}`);

    await p.goto(`${app.base}/#/knowledge?kb=${encodeURIComponent(kb)}`);
    await p.locator(`[data-article="${art}"]`).click();
    const articleEditor = p.getByLabel('Article text');
    await until('the article draft in the editor', async () => (await articleEditor.inputValue()) === articleTyped, 15000).catch(async () => {
      throw new Error(`after the kill the article editor shows ${JSON.stringify(await articleEditor.inputValue())}, want the typed draft`);
    });
    assert((await status.textContent()) === 'Unsaved changes · draft kept on this computer', `article status after restart: ${await status.textContent()}`);
    await p.getByRole('button', { name: 'Save', exact: true }).click();
    await until('the article save', async () => (await status.textContent()) === 'Saved');

    await p.goto(`${app.base}/#/records?channel=${encodeURIComponent(channel)}&item=${encodeURIComponent(record)}`);
    const recordBody = p.getByLabel('Record body');
    await until('the record draft in the editor', async () => (await recordBody.inputValue()) === recordTyped, 15000).catch(async () => {
      throw new Error(`after the kill the record body shows ${JSON.stringify(await recordBody.inputValue())}, want the typed draft`);
    });
    assert((await status.textContent()) === 'Unsaved changes · draft kept on this computer', `record status after restart: ${await status.textContent()}`);
    await p.getByRole('button', { name: 'Save', exact: true }).click();
    await until('the record save', async () => (await status.textContent()) === 'Saved');
    await until('the drafts to leave the app', async () => (await goCall(p, 'notes.Binding.Drafts')).length === 0);
    assert(await app.quit(), 'the app should quit on SIGTERM');
    await ctx.close();

    app = await startApp(bin, env, data);
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    p = await ctx.newPage();
    await p.goto(app.base + '/#/notes');
    await p.locator(`[data-note="${noteId}"]`).click();
    await until('the saved Note', async () => (await p.getByLabel('Note text').inputValue()) === typed);
    assert((await p.locator('[data-save-status]').textContent()) === 'Saved', 'a saved draft is not offered again');
    assert((await p.locator(`[data-note="${noteId}"] .draft`).count()) === 0, 'the list marks no draft once saved');
  } finally {
    await ctx.close().catch(() => {});
    await app.quit();
  }
}
