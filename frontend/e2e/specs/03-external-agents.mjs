import { join } from 'node:path';
import { until, assert, xtermText, goCall } from '../lib.mjs';
import { seeded, folders, claudeTranscript, escape, put, whichClaude } from '../seed/external-agents.mjs';

// External agents on the stores seeded by e2e/seed/external-agents.mjs:
// chips and rows, search, a session's conversation with tool rows drawn
// virtualised, the From the app panel, the branch question with Cancel and
// Open anyway, and Open in Terminal running the resume argv (the fake
// claude on the app's PATH prints its folder and arguments).
export default async function ({ page, base, home, tmp, env, shot }) {
  const f = folders(tmp);
  const rowSel = (id) => `[data-session$=":${id}"]`;
  const visibleKeys = () => page.$$eval('[data-session]', (els) => els.map((e) => e.getAttribute('data-session')));

  await page.goto(base + '/#/external-agents');
  await page.waitForSelector(rowSel(seeded.mismatch.id));
  const subtitle = await page.textContent('.subtitle');
  assert(/each app's own files/.test(subtitle) && /nothing is uploaded/i.test(subtitle), `subtitle: ${subtitle}`);
  const search = page.getByPlaceholder('Search titles, folders, branches', { exact: true });

  // Chips with counts; rows newest first; the sub-agent file is not a session.
  const chipText = async (app) => (await page.innerText(`[data-chip="${app}"]`)).replace(/\s+/g, ' ').trim();
  assert((await chipText('claude-code')) === 'Claude Code 3', `Claude Code chip: ${await chipText('claude-code')}`);
  assert((await chipText('codex-cli')) === 'Codex CLI 1', `Codex CLI chip: ${await chipText('codex-cli')}`);
  assert((await chipText('all')) === 'All 4', `All chip: ${await chipText('all')}`);
  const order = (await visibleKeys()).map((k) => k.split(':').slice(1).join(':'));
  const want = [seeded.permissive.id, seeded.codex.id, seeded.mismatch.id, seeded.gone.id];
  assert(JSON.stringify(order) === JSON.stringify(want), `rows newest first: got ${order}, want ${want}`);
  const mRow = await page.textContent(rowSel(seeded.mismatch.id));
  assert(mRow.includes('6d ago') && mRow.includes('shop-api') && mRow.includes('fix/checkout-retry') && mRow.includes('Claude Code'), `row: ${mRow}`);
  await shot('external-agents-list');

  // Search: title, folder, branch, app name, id; a chip filters.
  for (const [q, ids] of [
    ['CHECKOUT-RETRY', [seeded.mismatch.id]],
    ['shop-web', [seeded.codex.id]],
    ['old-importer', [seeded.gone.id]],
    ['codex', [seeded.codex.id]],
    [seeded.permissive.id.slice(0, 8), [seeded.permissive.id]],
  ]) {
    await search.fill(q);
    await until(`search ${q}`, async () => JSON.stringify((await visibleKeys()).map((k) => k.split(':').slice(1).join(':'))) === JSON.stringify(ids));
  }
  await search.fill('');
  await page.click('[data-chip="codex-cli"]');
  await until('the Codex chip to filter', async () => (await visibleKeys()).length === 1);
  await page.click('[data-chip="all"]');
  await until('All to show every session', async () => (await visibleKeys()).length === 4);

  // Open the session: recorded metadata, tool rows, virtualised conversation.
  await search.fill('double charge');
  await page.click(rowSel(seeded.mismatch.id));
  await page.waitForSelector('[data-row-kind="tool_call"]');
  const call = await page.textContent('[data-row-kind="tool_call"]');
  assert(call.includes('Bash') && call.includes('go test ./payments/...'), `tool call row: ${call}`);
  const result = await page.textContent('[data-row-kind="tool_result"]');
  assert(result.includes('shop/payments'), `tool result row: ${result}`);
  const recorded = await until('the recorded metadata', async () => {
    const t = await page.textContent('[aria-label="Recorded"]');
    return t.includes('Session id') ? t : '';
  });
  assert(recorded.includes(seeded.mismatch.id) && recorded.includes(f.shopApi) && recorded.includes(seeded.model), `recorded: ${recorded}`);
  const conv = page.locator('[aria-label="Conversation rows"]');
  await until('more than one page of rows', async () => Number(await conv.getAttribute('data-rows')) >= 200);
  const inDom = await page.locator('[data-row-kind]').count();
  const loaded = Number(await conv.getAttribute('data-rows'));
  assert(inDom > 0 && inDom < 60 && loaded >= 200, `virtualised: ${inDom} rows in the DOM of ${loaded} loaded`);
  // Scrolling to the end loads every page: 1 + 4 rows per pair + titles.
  const total = 1 + 4 * seeded.toolRecords;
  await until('every page to load while scrolling', async () => {
    await conv.evaluate((el) => (el.scrollTop = el.scrollHeight));
    return Number(await conv.getAttribute('data-rows')) >= total;
  }, 30000);
  assert((await page.locator('[data-row-kind]').count()) < 60, 'the DOM keeps only the visible rows at the end too');
  await conv.evaluate((el) => (el.scrollTop = 0));

  // From the app: folder kept, branch differs, nothing checked out.
  const panel = page.locator('[aria-label="From the app"]');
  await until('the relaunch plan', async () => (await panel.textContent()).includes('differs from the folder'));
  const argvShown = await page.textContent('[data-argv]');
  assert(argvShown === `claude --resume ${seeded.mismatch.id} --model ${seeded.model} --effort ${seeded.effort}`, `argv shown: ${argvShown}`);
  await shot('external-agents-detail');
  // A small window keeps the actions and the conversation in view.
  await page.setViewportSize({ width: 1000, height: 640 });
  assert(await page.getByRole('button', { name: 'Open in Terminal' }).isVisible(), 'Open in Terminal visible in a small window');
  assert((await page.locator('[data-row-kind]').count()) > 0, 'conversation rows visible in a small window');
  await shot('external-agents-detail-small');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Branch mismatch: Cancel starts nothing; Open anyway opens the pane.
  const panesBefore = (await goCall(page, 'terminal.Service.List')).length;
  await page.getByRole('button', { name: 'Open in Terminal' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  const q = await dialog.locator('[data-question]').textContent();
  assert(q === `This session was on ${seeded.mismatch.branch}; the folder is on main now.`, `question: ${q}`);
  await shot('external-agents-branch-question');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert((await goCall(page, 'terminal.Service.List')).length === panesBefore, 'Cancel must not start a pane');

  await page.getByRole('button', { name: 'Open in Terminal' }).click();
  await dialog.getByRole('button', { name: 'Open anyway' }).click();
  await page.waitForURL(/#\/terminal\?pane=p-[0-9a-f]+$/);
  const paneId = decodeURIComponent(new URL(page.url()).hash.split('pane=')[1]);
  const pane = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === paneId);
  const wantArgv = ['claude', '--resume', seeded.mismatch.id, '--model', seeded.model, '--effort', seeded.effort];
  assert(pane && pane.dir === f.shopApi, `pane folder: ${pane?.dir}, want ${f.shopApi}`);
  assert(JSON.stringify(pane.argv) === JSON.stringify(wantArgv), `pane argv: ${JSON.stringify(pane.argv)}`);
  await page.waitForSelector(`[data-pane-view="${paneId}"]`);
  const claude = whichClaude(env, tmp);
  if (claude === 'fake') {
    await until('the fake claude to print its folder and argv', async () => {
      const text = (await xtermText(page, paneId)).replace(/\n/g, '');
      return text.includes(`fake-claude cwd=${f.shopApi}`) && wantArgv.slice(1).every((a) => text.includes(`arg=${a}`));
    });
  } else {
    // The real Claude Code is first on the app's PATH (the pipeline seed):
    // it starts in the recorded folder and first asks to trust it.
    assert(claude !== 'none', 'no claude on the PATH the app gets');
    await until(`the real claude (${claude}) to open in ${f.shopApi}`, async () => (await xtermText(page, paneId)).replace(/\n/g, '').includes(f.shopApi), 30000);
  }
  await shot('external-agents-terminal');
  await goCall(page, 'terminal.Service.Close', paneId);

  // A permissive approval mode is passed only when ticked; same branch: no question.
  await page.goto(base + '/#/external-agents');
  await search.fill(''); // the screen keeps its search when left
  await page.click(rowSel(seeded.permissive.id));
  const tick = page.locator('[data-keep="Approval mode"]');
  await tick.waitFor();
  assert(!(await page.textContent('[data-argv]')).includes('--permission-mode'), 'unticked acceptEdits must not be passed');
  await tick.check();
  await until('the tick to reach the plan', async () => (await page.textContent('[data-argv]')).includes('--permission-mode acceptEdits'));
  await page.getByRole('button', { name: 'Open in Terminal' }).click();
  await page.waitForURL(/#\/terminal\?pane=/);
  const id2 = decodeURIComponent(new URL(page.url()).hash.split('pane=')[1]);
  const pane2 = (await goCall(page, 'terminal.Service.List')).find((p) => p.id === id2);
  assert(pane2 && pane2.argv.join(' ').endsWith('--permission-mode acceptEdits') && pane2.dir === f.shopApi, `ticked pane: ${JSON.stringify(pane2)}`);
  await goCall(page, 'terminal.Service.Close', id2);

  // Continue here: a chat of the app's pipeline continues the session.
  await page.goto(base + '/#/external-agents');
  await search.fill(''); // the screen keeps its search when left
  await page.click(rowSel(seeded.permissive.id));
  await page.getByRole('button', { name: 'Continue here' }).click();
  await page.waitForURL(/#\/chat\?chat=/);
  const chatId = decodeURIComponent(new URL(page.url()).hash.split('chat=')[1]);
  const chat = (await goCall(page, 'chat.Binding.GetChat', chatId)).chat;
  assert(chat.cliAgent === 'claude' && chat.cliSession === seeded.permissive.id && chat.folder === f.shopApi,
    `continued chat: ${JSON.stringify(chat)}`);
  await shot('external-agents-continue-here');

  // A session whose folder is gone is refused, with the reason shown.
  await page.goto(base + '/#/external-agents');
  await search.fill(''); // the screen keeps its search when left
  await page.click(rowSel(seeded.gone.id));
  await until('the missing-folder refusal', async () => /no longer exists/.test(await page.locator('[aria-label="From the app"]').textContent()));
  assert(await page.getByRole('button', { name: 'Open in Terminal' }).isDisabled(), 'Open in Terminal must be disabled for a missing folder');
  const refused = await goCall(page, 'inventory.Binding.OpenInTerminal', { ref: `claude-code:${seeded.gone.id}`, keep: [], openAnyway: true }).then(
    () => '',
    (e) => String(e),
  );
  assert(/refused/.test(refused) && refused.includes(join('work', 'old-importer')), `backend refusal: ${refused}`);

  // Live: a session started in a terminal meanwhile appears without a reload.
  await page.goto(base + '/#/external-agents');
  await search.fill(''); // the screen keeps its search when left
  await page.waitForSelector(rowSel(seeded.mismatch.id));
  const liveId = 'c0ffee00-1111-4222-8333-444455556666';
  put(join(home, '.claude', 'projects', escape(f.shopWeb), liveId + '.jsonl'),
    claudeTranscript({ id: liveId, cwd: f.shopWeb, branch: 'main', title: 'Started in a terminal just now', firstMessage: 'Hello', at: Date.now() }));
  await until('the new session to appear live', async () => (await visibleKeys())[0]?.endsWith(liveId), 20000);
  assert((await chipText('claude-code')) === 'Claude Code 4', `Claude Code chip after the new session: ${await chipText('claude-code')}`);
  assert((await page.textContent(rowSel(liveId))).includes('just now'), 'the new session was used just now');

  // Apps menu: an app switched off is dropped (chip and rows); on again, back.
  await page.getByRole('button', { name: 'Apps' }).click();
  const codexToggle = page.locator('[data-app-toggle="codex-cli"]');
  assert(await codexToggle.isChecked(), 'Codex CLI starts on');
  await codexToggle.uncheck();
  await until('Codex CLI to be dropped', async () => !(await page.$('[data-chip="codex-cli"]')) && !(await page.$(rowSel(seeded.codex.id))));
  await shot('external-agents-apps-menu');
  await codexToggle.check();
  await until('Codex CLI to come back', async () => !!(await page.$(rowSel(seeded.codex.id))));
  await page.keyboard.press('Escape');
}
