import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// The Orchestration screen with the REAL Claude Code (build/agents) against
// the scripted fake model:
// - the screen is in the sidebar and, with no jobs, says how to start one;
//   the form says in which folder the runs work;
// - bad input is refused next to the form in words that say what to do
//   (a limit that is not a number; an empty task, refused by the backend);
// - a fleet of 2 (two tasks, Worker on cli:claude:agent, limits set): both
//   runs are seen Running, then Done with their own answers rendered as
//   Markdown, the job reads "2 of 2 done" with its cost ("subscription ·
//   ≈$x at API prices", as Chat words it) and its limits;
// - a fleet of 2 held by the fake model: Cancel on run 1 cancels it while
//   run 2 keeps running; the Sessions board shows the fleet as a Team card
//   with its runs counted, and the card opens the job here; Cancel all ends
//   run 2 too;
// - a fleet started with `osfoundry run` in a terminal is a Team card on the
//   board while it goes; Cancel all in the window cancels it there and
//   `osfoundry run` exits 1 saying so;
// - limits are enforced and shown: with 1 at once run 2 waits while run 1
//   runs, and a spend limit below one run's cost stops the job with why.
export default async function ({ page, base, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const push = async (scenario, q = '') => assert((await fake(`/_testkit/push?scenario=${scenario}${q}`, { method: 'POST' })).status === 204, `push ${scenario}`);
  const requests = async () => (await (await fake('/_testkit/requests')).json()).length;

  // The set-up 06 does through its screens (this spec also runs alone).
  await page.goto(base + '/#/sessions');
  await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
  await goCall(page, 'roles.Binding.AddFolder', seed.work);

  // --- The screen, empty ---
  await page.locator('nav[aria-label="Main"]').getByRole('button', { name: 'Orchestration' }).click();
  await until('the Orchestration route', async () => page.url().includes('#/orchestration'));
  const intro = page.locator('[data-empty]');
  await intro.getByRole('heading', { name: 'No fleets, loops or graphs yet' }).waitFor();
  assert((await intro.textContent()).includes('Start one below'), 'the empty state says how to start one');
  const form = page.getByRole('form', { name: 'Start orchestration' });
  assert((await form.getByRole('tab', { name: 'Fleet' }).getAttribute('aria-selected')) === 'true', 'Fleet is the first kind');
  await form.getByLabel('Role of run 1').waitFor();
  assert((await form.getByLabel('Role of run 1').inputValue()) === 'Worker', 'a run starts as Worker');
  // The model picker is the Pipeline Roles one: its empty choice names the role's model.
  const picker = form.getByRole('combobox', { name: 'Model of run 1' });
  await until('the picker to name the role model', async () => (await picker.textContent()).includes("Worker's model (cli:claude:agent)"));

  // The form says where the runs work (the current Local Folder).
  const where = form.locator('[data-where]');
  await until('the folder on the form', async () => ((await where.textContent().catch(() => '')) ?? '').includes('work-pipeline'));
  assert((await where.textContent()).startsWith('Runs work in'), `where the runs work: ${await where.textContent()}`);

  // --- Bad input ---
  const alert = form.locator('[data-start-error]');
  await form.getByLabel('Time limit in minutes').fill('ten');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  assert(
    (await alert.textContent()) === 'Time limit: type the minutes as a number above 0 (e.g. 10), or leave it empty for no time limit.',
    `the time limit error: ${await alert.textContent()}`,
  );
  await form.getByLabel('Time limit in minutes').fill('10');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await until('the backend refusing the empty task', async () => ((await alert.textContent().catch(() => '')) ?? '').includes('empty'));
  const refusal = await alert.textContent();
  assert(/^Task 1 is empty: say what that run should do/.test(refusal), `the empty task refusal: ${refusal}`);
  assert((await page.locator('[data-job]').count()) === 0, 'nothing started on bad input');

  // --- A fleet of 2 that finishes ---
  await push('say', '&text=' + encodeURIComponent('The **changelog** is written.'));
  await push('say', '&text=' + encodeURIComponent('All **links** answer.'));
  await form.getByLabel('Task of run 1').fill('Write the changelog');
  await form.getByLabel('Task of run 2').fill('Check the links');
  await form.getByLabel('Spend limit in dollars').fill('2');
  await form.getByLabel('Runs at once').fill('2');
  await shot('orchestration-start');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  const job = page.locator('section[data-job]');
  await job.waitFor();
  const jobId = await job.getAttribute('data-job');
  assert(page.url().includes('job=' + jobId), 'the job is in the route');
  assert((await job.getAttribute('data-kind')) === 'fleet', 'a fleet');
  const child = (n) => job.locator(`article[aria-label="Run ${n}"]`);
  const seenRunning = new Set();
  await until(
    'both runs to be done',
    async () => {
      for (const n of [1, 2]) if ((await child(n).getAttribute('data-state')) === 'running') seenRunning.add(n);
      return (await child(1).getAttribute('data-state')) === 'done' && (await child(2).getAttribute('data-state')) === 'done';
    },
    120000,
  );
  assert(seenRunning.size === 2, `both runs were seen running: ${[...seenRunning]}`);
  const answers = (await job.locator('[data-child-result]').allInnerTexts()).map((s) => s.trim()).sort();
  assert(JSON.stringify(answers) === JSON.stringify(['All links answer.', 'The changelog is written.']), `the answers: ${JSON.stringify(answers)}`);
  assert((await job.locator('[data-child-result] strong').count()) === 2, 'answers are rendered as Markdown');
  await until('the job to end done', async () => (await job.getAttribute('data-state')) === 'done');
  assert((await job.locator('[data-job-progress]').textContent()) === '2 of 2 done', `the job's progress: ${await job.locator('[data-job-progress]').textContent()}`);
  // Cost by the app's one rule: the runs are on the subscription; the CLI's
  // own figure is an estimate at API prices, never dollars spent.
  const jobCost = await job.locator('[data-job-cost]').textContent();
  assert(/^subscription · ≈\$\d+\.\d+ at API prices$/.test(jobCost), `the job's cost: ${jobCost}`);
  for (const c of await job.locator('[data-child-cost]').allTextContents()) {
    assert(/^subscription( · ≈\$\d+\.\d+ at API prices)?$/.test(c), `a run's cost: ${c}`);
  }
  assert((await job.locator('[data-job-limits]').textContent()) === 'Limits: time 10 min · spend $2.00 · 2 at once', `the limits: ${await job.locator('[data-job-limits]').textContent()}`);
  assert((await job.getByRole('button', { name: 'Cancel all' }).count()) === 0, 'no Cancel all on a finished job');
  assert(/^took (\d+ min )?\d+ s$|^took \d+ min$/.test(await job.locator('[data-job-elapsed]').textContent()), `how long it took: ${await job.locator('[data-job-elapsed]').textContent()}`);
  await shot('orchestration-fleet-done');

  // --- A loop: refused without a stop condition, then 2 iterations by count ---
  const startNew = async () => {
    await page.locator('aside[aria-label="Jobs"]').getByRole('button', { name: '+ Start' }).click();
    await form.waitFor();
  };
  await startNew();
  await form.getByRole('tab', { name: 'Loop' }).click();
  await form.getByLabel('Task of the loop').fill('Polish the README');
  await form.getByRole('button', { name: 'Start loop' }).click();
  await until('the loop refusal', async () => ((await alert.textContent().catch(() => '')) ?? '').includes('stop condition'));
  assert((await alert.textContent()).startsWith('A loop needs a stop condition'), `the loop refusal: ${await alert.textContent()}`);
  await form.getByLabel('Count').fill('2');
  await form.getByRole('button', { name: 'Start loop' }).click();
  await until('the loop to open', async () => (await job.getAttribute('data-kind').catch(() => '')) === 'loop');
  await until('the loop to end', async () => (await job.getAttribute('data-state')) === 'done', 120000);
  const iterations = await job.locator('article[data-child]').evaluateAll((els) => els.map((e) => [e.getAttribute('aria-label'), e.dataset.state]));
  assert(JSON.stringify(iterations) === JSON.stringify([['Iteration 1', 'done'], ['Iteration 2', 'done']]), `the iterations: ${JSON.stringify(iterations)}`);

  // --- A graph: a cycle is refused on the form; s2 runs after s1 ---
  await startNew();
  await form.getByRole('tab', { name: 'Graph' }).click();
  await form.getByLabel('Goal of the graph').fill('Ship the release notes');
  await form.getByLabel('Role of step s1').selectOption('Worker');
  await form.getByLabel('Part of step s1').fill('List what changed');
  await form.getByLabel('Part of step s2').fill('Write the notes from the list');
  const order = form.locator('[data-graph-order]');
  assert((await order.textContent()).trim() === 'Runs in order: 1. s1 (Worker) → 2. s2 (Worker)', `the order: ${await order.textContent()}`);
  await form.getByRole('group', { name: 'Step s1 runs after' }).getByLabel('s2').check();
  const circle = 'Steps s1, s2 wait for each other in a circle: remove one of their "after" links.';
  assert((await order.textContent()).trim() === circle, `the cycle on the form: ${await order.textContent()}`);
  await shot('orchestration-graph-cycle');
  await form.getByRole('button', { name: 'Start graph' }).click();
  assert((await alert.textContent()) === circle, `the cycle refusal: ${await alert.textContent()}`);
  await form.getByRole('group', { name: 'Step s1 runs after' }).getByLabel('s2').uncheck();
  await form.getByRole('button', { name: 'Start graph' }).click();
  await until('the graph to open', async () => (await job.getAttribute('data-kind').catch(() => '')) === 'graph');
  await until('the graph to end', async () => (await job.getAttribute('data-state')) === 'done', 120000);
  const graph = await goCall(page, 'orchestrate.OrchestrateBinding.Get', await job.getAttribute('data-job'));
  const [s1, s2] = graph.steps;
  assert(s1.id === 's1' && s2.id === 's2' && s2.startedAt >= s1.endedAt, `s2 starts after s1 ends: ${JSON.stringify(graph.steps.map((x) => [x.id, x.startedAt, x.endedAt]))}`);
  assert((await job.locator('h2.level').allTextContents()).slice(0, 2).join('|') === 'Stage 1|Stage 2', 'the graph shows its steps in order');

  // --- A run that waits for an approval: the run and its Team card need you ---
  const target = await goCall(page, 'terminal.Service.Create', { dir: seed.work, command: 'cat', cols: 80, rows: 24 });
  await push('approve', `&pane=${target.id}`);
  await startNew();
  await form.getByLabel('Name').fill('Typing team');
  await form.getByRole('button', { name: 'Remove run 2' }).click();
  await form.getByLabel('Task of run 1').fill('Type the check command into my terminal');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await until('the typing team to open', async () => ((await job.locator('h1').textContent().catch(() => '')) ?? '').includes('Typing team'));
  const typing = await job.getAttribute('data-job');
  await until('run 1 to need you', async () => (await child(1).getAttribute('data-state')) === 'needs_you', 90000);
  assert((await child(1).locator('[data-child-state]').textContent()) === 'Needs you', 'the run reads Needs you');
  assert((await child(1).locator('[data-waits]').textContent()).trim() === 'Waiting for your approval of runtime_send.', `why it needs you: ${await child(1).locator('[data-waits]').textContent()}`);
  assert((await job.getAttribute('data-state')) === 'needs_you', 'the job needs you');
  await shot('orchestration-needs-you');
  await page.goto(base + '/#/sessions');
  const typingCard = page.locator('[data-column="needs_you"] [data-card]').filter({ hasText: 'Typing team' });
  await typingCard.waitFor({ timeout: 15000 });
  await typingCard.getByRole('button', { name: /^Open / }).click();
  await until('the card to open the typing team', async () => page.url().includes('#/orchestration?job=' + typing));
  const approval = page.getByRole('alertdialog', { name: 'Approve runtime_send?' });
  await approval.getByRole('button', { name: 'Approve' }).click();
  await until('run 1 to be done', async () => (await child(1).getAttribute('data-state')) === 'done', 60000);
  assert((await child(1).locator('[data-child-result]').textContent()).trim() === 'I typed the check into your terminal.', 'the answer after Approve');
  await goCall(page, 'terminal.Service.Close', target.id);

  // --- A fleet held by the model: cancel one run, then all ---
  const before = await requests();
  await push('slow');
  await push('slow');
  await startNew();
  await form.getByLabel('Name').fill('Held pair');
  await form.getByLabel('Task of run 1').fill('Hold the first line');
  await form.getByLabel('Task of run 2').fill('Hold the second line');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await until('a second job', async () => (await job.getAttribute('data-job').catch(() => jobId)) !== jobId);
  const held = await job.getAttribute('data-job');
  await until('both runs to ask the model', async () => (await requests()) >= before + 2, 120000);
  await until('both runs to be running', async () => (await child(1).getAttribute('data-state')) === 'running' && (await child(2).getAttribute('data-state')) === 'running');
  await child(1).getByRole('button', { name: 'Cancel Run 1' }).click();
  await until('run 1 to be cancelled', async () => (await child(1).getAttribute('data-state')) === 'cancelled', 30000);
  assert((await child(2).getAttribute('data-state')) === 'running', 'run 2 keeps running when run 1 is cancelled');
  assert((await job.getAttribute('data-state')) === 'running', 'the job goes on');
  await shot('orchestration-one-cancelled');

  // The Sessions board shows it as a Team card that counts its runs and opens it here.
  await page.goto(base + '/#/sessions');
  const team = page.locator('[data-card]').filter({ hasText: 'Team' }).filter({ hasText: 'Held pair' });
  await team.waitFor({ timeout: 15000 });
  const cardText = await team.textContent();
  assert(cardText.includes('0 of 2 done · 1 running'), `the Team card counts its runs: ${cardText}`);
  assert((await page.locator('[data-column="running"] [data-card]').filter({ hasText: 'Held pair' }).count()) === 1, 'the Team card is in Running');
  const runs = team.getByRole('progressbar', { name: '0 of 2 runs done' });
  assert((await runs.getAttribute('aria-valuenow')) === '0' && (await runs.getAttribute('aria-valuemax')) === '2', 'the Team card has its runs as a progress bar');
  assert((await runs.textContent()).trim() === '0/2', `the Team card's run count: ${await runs.textContent()}`);
  await team.getByRole('button', { name: /^Open / }).click();
  await until('the card to open the job', async () => page.url().includes('#/orchestration?job=' + held));
  await job.waitFor();
  assert((await job.getAttribute('data-job')) === held, 'the card opened its job');

  await job.getByRole('button', { name: 'Cancel all' }).click();
  await until('run 2 to be cancelled', async () => (await child(2).getAttribute('data-state')) === 'cancelled', 30000);
  await until('the job to end', async () => (await job.getAttribute('data-state')) !== 'running', 30000);
  assert((await child(1).getAttribute('data-state')) === 'cancelled', 'run 1 stays cancelled');
  await shot('orchestration-all-cancelled');

  // --- A fleet started from a terminal (osfoundry run) is on the board; the window cancels it ---
  const beforeTerminal = await requests();
  await push('slow');
  const fleetFile = join(tmp, 'terminal-fleet.json');
  writeFileSync(fleetFile, JSON.stringify({ title: 'From the terminal', tasks: [{ role: 'Worker', prompt: 'Hold a line for the terminal' }] }));
  const terminal = spawn(bin, ['run', '--fleet', fleetFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let terminalOut = '';
  terminal.stdout.on('data', (d) => (terminalOut += d));
  terminal.stderr.on('data', (d) => (terminalOut += d));
  const terminalExit = new Promise((done) => terminal.on('exit', (code) => done(code)));
  try {
    await until('the terminal run to ask the model', async () => (await requests()) >= beforeTerminal + 1, 120000);
    await page.goto(base + '/#/sessions');
    const fromTerminal = page.locator('[data-column="running"] [data-card]').filter({ hasText: 'From the terminal' });
    await fromTerminal.waitFor({ timeout: 15000 });
    assert((await fromTerminal.textContent()).includes('0 of 1 done · 1 running'), `the terminal's Team card: ${await fromTerminal.textContent()}`);
    await shot('orchestration-from-terminal');
    await fromTerminal.getByRole('button', { name: /^Open / }).click();
    await until('the card to open the terminal job', async () => page.url().includes('#/orchestration?job='));
    await until('the job screen to show it', async () => ((await job.locator('h1').textContent().catch(() => '')) ?? '').includes('From the terminal'));
    await job.getByRole('button', { name: 'Cancel all' }).click();
    await until('the terminal job to be cancelled', async () => (await job.getAttribute('data-state')) === 'cancelled', 30000).catch(async (e) => {
      const asked = (await (await fake('/_testkit/requests')).json()).slice(beforeTerminal).map((r) => `turn ${r.turn} ${r.model}: ${(r.last ?? '').slice(0, 160)}`);
      throw new Error(`${e.message}\njob screen (${await job.getAttribute('data-state')}):\n${await job.innerText()}\nosfoundry run printed:\n${terminalOut.slice(-3000)}\nthe model was asked since:\n${asked.join('\n')}`);
    });
    const code = await Promise.race([terminalExit, new Promise((done) => setTimeout(() => done('still running'), 30000))]);
    assert(code === 1, `osfoundry run after the window cancelled its job: exit ${code}\n${terminalOut}`);
    assert(terminalOut.includes('cancelled'), `osfoundry run says the job was cancelled:\n${terminalOut}`);
  } finally {
    terminal.kill('SIGKILL');
  }

  // --- Limits enforced and shown: one run at once, a spend limit below one run's cost ---
  await startNew();
  await form.getByLabel('Name').fill('Spend capped');
  await form.getByLabel('Task of run 1').fill('First of two');
  await form.getByLabel('Task of run 2').fill('Second of two');
  await form.getByLabel('Spend limit in dollars').fill('0.01');
  await form.getByLabel('Runs at once').fill('1');
  await form.getByRole('button', { name: 'Start fleet' }).click();
  await until('the capped team to open', async () => ((await job.locator('h1').textContent().catch(() => '')) ?? '').includes('Spend capped'));
  assert((await job.locator('[data-job-limits]').textContent()) === 'Limits: spend $0.01 · 1 at once', `the limits: ${await job.locator('[data-job-limits]').textContent()}`);
  await until('run 1 to be running', async () => (await child(1).getAttribute('data-state')) === 'running', 60000);
  assert((await child(2).getAttribute('data-state')) === 'waiting', 'run 2 waits while run 1 runs (1 at once)');
  await until('the spend limit to stop the job', async () => (await job.getAttribute('data-state')) === 'stopped', 120000);
  const why = await job.locator('[data-job-error]').textContent();
  assert(why.startsWith('Stopped: spend limit $0.01 reached ('), `why the job stopped: ${why}`);
  assert((await child(1).getAttribute('data-state')) === 'done' && (await child(2).getAttribute('data-state')) === 'cancelled', 'run 2 never started');
  assert((await job.locator('[data-job-state]').textContent()) === 'Stopped', 'the job reads Stopped');
  await shot('orchestration-spend-limit');

  // A link to a job that does not exist says why, in the backend's words.
  await page.goto(base + '/#/orchestration?job=fleet_0000000000000000');
  const missing = page.locator('[data-missing]');
  await missing.waitFor();
  assert((await missing.textContent()).includes('No such job "fleet_0000000000000000"'), `the missing job: ${await missing.textContent()}`);
}
