import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';
import { claudeTranscript, escape, put } from '../seed/external-agents.mjs';

// External agents and the app's own runs, with the REAL Claude Code
// (build/agents) against the scripted fake model:
// - a chat task runs `claude -p` (and the Titling role another), and Claude
//   Code keeps those sessions in ~/.claude/projects like any other;
//   External agents leaves them out of the list and the chip counts, and
//   the list head says how many osFoundry runs are hidden;
// - a search that only it matches says "1 osFoundry run matches" and offers
//   to show it;
// - "Show osFoundry runs" lists it with an "osFoundry run" badge
//   under the chat's title (not "User: …"), and its detail says how it
//   was recognised;
// - a person's session from nine days ago whose file was touched a minute
//   ago shows "9d ago" (the last message it records), not "1m ago".
export default async function ({ page, base, home, tmp, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);

  // A person's session, last used nine days ago, copied here a minute ago.
  const folder = join(tmp, 'work', 'tax-report');
  mkdirSync(folder, { recursive: true });
  const mine = '8e2a6c40-1b3d-4f5e-9a7b-c8d9e0f1a2b3';
  const nineDays = Date.now() - 9 * 24 * 3600_000;
  put(join(home, '.claude', 'projects', escape(folder), mine + '.jsonl'),
    claudeTranscript({ id: mine, cwd: folder, branch: 'main', title: 'Quarterly tax report totals', firstMessage: 'Why are the Q3 totals off?', at: nineDays }),
    Date.now() - 60_000);

  // A chat task: the app runs the real claude -p in the work folder.
  await page.goto(base + '/#/external-agents');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);
  const chatTitle = 'Launch checklist for the beta';
  const chat = await goCall(page, 'chat.Binding.CreateChat', { title: chatTitle, folder: seed.work, agentId: '', worktree: false, planMode: false });
  const run = await goCall(page, 'chat.Binding.Send', chat.id, 'Reply with ok');
  const done = await until('the chat run to end', async () => {
    const r = await goCall(page, 'chat.Binding.GetRun', run.id);
    return ['done', 'failed'].includes(r.state) ? r : null;
  }, 120000);
  assert(done.state === 'done' && done.sessionId, `run: ${done.state} ${done.error} session ${done.sessionId}`);
  // The Titling role names the chat after its first answer with a claude -p
  // run of its own (another session on disk): let it end before counting.
  await until('the chat titled', async () => (await goCall(page, 'chat.Binding.GetChat', chat.id)).chat.title !== chatTitle, 120000);

  await page.goto(base + '/#/terminal');
  await page.goto(base + '/#/external-agents');
  const rowOf = (id) => page.locator(`[data-session$=":${id}"]`);
  await rowOf(mine).waitFor({ timeout: 20000 });
  const head = page.locator('[data-list-count]');
  // Other specs' runs may be hidden too: count them all.
  const hiddenText = await until('the hidden run to be counted', async () => ((await head.textContent()) ?? '').match(/ · (\d+) osFoundry runs? hidden$/), 30000);
  const hidden = Number(hiddenText[1]);
  assert((await rowOf(done.sessionId).count()) === 0, "the app's run is listed before the filter asks for it");
  const all = async () => (await page.innerText('[data-chip="all"]')).replace(/\s+/g, ' ').trim();
  const before = await all();

  // A session from nine days ago says so, and why.
  const when = rowOf(mine).locator('.when');
  assert((await when.textContent()).trim() === '9d ago', `the person's session shows ${await when.textContent()}, want 9d ago`);
  assert((await when.getAttribute('data-when')) === 'recorded', 'the time is the recorded one');

  // Searching for the hidden run says it is there, and offers to show it.
  const search = page.getByPlaceholder('Search titles, folders, branches', { exact: true });
  await search.fill(done.sessionId.slice(0, 13));
  const note = page.locator('[data-hidden-matches]');
  await until('the hidden match to be offered', async () => ((await note.textContent().catch(() => '')) ?? '').replace(/\s+/g, ' ').trim() === '1 osFoundry run matches: show osFoundry runs');
  await note.getByRole('button', { name: 'show osFoundry runs' }).click();
  const filter = page.getByRole('checkbox', { name: /Show osFoundry runs/ });
  assert(await filter.isChecked(), 'the filter is on after "show osFoundry runs"');
  const runRow = rowOf(done.sessionId);
  await runRow.waitFor();
  await search.fill('');
  const badge = runRow.locator('[data-own-run]');
  assert((await badge.textContent()).trim() === 'osFoundry run', 'the run has the osFoundry run badge');
  // The chat's title (as created, or as the Titling role renamed it).
  const title = await until("the row titled like the chat", async () => {
    const now = (await goCall(page, 'chat.Binding.GetChat', chat.id)).chat.title;
    const got = (await runRow.locator('.title').textContent()).trim();
    return [chatTitle, now].includes(got) ? got : null;
  });
  assert(!/^User: /.test(title) && title !== '', `the title is the prompt block: ${title}`);
  const after = await all();
  // At least the hidden runs join the count (other specs' runs may end
  // and be listed meanwhile).
  assert(Number(after.split(' ').at(-1)) >= Number(before.split(' ').at(-1)) + hidden, `All chip ${before} → ${after} with ${hidden} runs shown`);

  await runRow.click();
  const recorded = page.locator('[aria-label="Recorded"]');
  // The engine's record of the session id is read at most once a second:
  // until then the run is known by its prompt's shape.
  await until('the detail to say the app recorded the run', async () => ((await recorded.textContent()) ?? '').includes('the app recorded this session id when it ran it'));
  await page.locator('.pane .sub [data-own-run]').waitFor();
  await shot('external-agents-own-runs');

  // Unticked, the run leaves the list again.
  await filter.uncheck();
  await until('the run hidden again', async () => (await rowOf(done.sessionId).count()) === 0);
}
