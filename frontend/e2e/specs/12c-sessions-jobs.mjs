import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';
import { startApp } from './14b-terminal-restore.mjs';

// Team and Loop cards dragged to Done, with the REAL Claude Code
// (build/agents) against the scripted fake model: a fleet and a loop are
// started for real (the Orchestration screen's bindings), each works on a
// held turn, so its card is Running. Checks, for each:
// - the card offers Pause, and Pause freezes its run: the card moves to
//   Paused;
// - dragged onto Done it asks first ("End this session?"), and no tooltip
//   is left floating over that dialog;
// - End session cancels the job, saves a summary (the notice names it) and
//   the card lands in Done, where it stays after a reload;
// - the card says its cost as every screen does ("subscription").
// It runs on an app with a data folder of its own: the jobs it ends stay in
// their history, and the Orchestration spec starts from an empty one.
export default async function ({ page, tmp, env, bin, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const fake = (path, init) => fetch(seed.url + path, init);
  const asked = async () => (await (await fake('/_testkit/requests')).json()).length;
  const push = async (scenario) => assert((await fake(`/_testkit/push?scenario=${scenario}`, { method: 'POST' })).status === 204, `push ${scenario}`);

  const app = await startApp(bin, env, join(tmp, 'data-jobs'));
  const base = app.base;
  const limits = { maxSeconds: 0, maxSpendUSD: 0, concurrency: 0 };
  const jobs = [];
  try {
    await page.goto(base + '/#/sessions');
    await page.waitForSelector('[data-column="done"]');
    await goCall(page, 'roles.Binding.SetRoleModel', 'Worker', 'cli:claude:agent');
    await goCall(page, 'roles.Binding.AddFolder', seed.work);
    for (const [kind, start] of [
      ['Team', () => goCall(page, 'orchestrate.OrchestrateBinding.StartFleet', { title: 'Release team', tasks: [{ role: 'Worker', prompt: 'Draft the release notes slowly' }], limits })],
      ['Loop', () => goCall(page, 'orchestrate.OrchestrateBinding.StartLoop', { title: 'Polish loop', role: 'Worker', prompt: 'Polish the README slowly', count: 3, limits })],
    ]) {
      const before = await asked();
      await push('slow');
      const job = await start();
      jobs.push(job.id);
      await until(`the ${kind}'s run to ask the model`, async () => (await asked()) > before, 90000);
      const card = page.locator(`[data-card$="/${job.id}"]`);
      const key = await card.getAttribute('data-card', { timeout: 30000 });
      const inColumn = (col) => page.locator(`[data-column="${col}"] [data-card="${key}"]`);
      await inColumn('running').waitFor();
      assert((await card.locator('.kind').textContent()) === kind, `a ${kind} card: ${await card.locator('.kind').textContent()}`);
      // Its cost, by the app's one rule (no run has reported a figure yet).
      const cost = (await card.locator('[data-card-cost]').textContent()).trim();
      assert(/^subscription( · ≈\$[\d.]+ at API prices)?$/.test(cost), `the ${kind} card's cost: ${cost}`);

      // Pause it from its card.
      await card.getByRole('button', { name: /^Pause / }).click();
      await inColumn('paused').waitFor({ timeout: 30000 });
      if (kind === 'Team') await shot('sessions-jobs-paused');

      // Drag it to Done: asked first, no tooltip over the question.
      await page.dragAndDrop(`[data-card="${key}"] .open`, '[data-column="done"]');
      const dialog = page.getByRole('dialog', { name: 'End this session?' });
      await dialog.waitFor();
      await page.waitForTimeout(700); // longer than a tooltip's delay: one left pending would show now
      const floating = await page.evaluate(() => {
        const t = document.getElementById('app-tooltip');
        return t && !t.hidden ? t.textContent : '';
      });
      assert(!floating, `a tooltip floats over the dialog: "${floating}"`);
      await dialog.getByRole('button', { name: 'End session' }).click();
      await dialog.waitFor({ state: 'detached' });
      const notice = page.locator('.banner.notice');
      await until(`the ${kind}'s summary notice`, async () => /Summary saved to \S+\.md/.test((await notice.textContent().catch(() => '')) ?? ''));
      await inColumn('done').waitFor({ timeout: 30000 });
      await until(`the ${kind}'s job to be cancelled`, async () => (await goCall(page, 'orchestrate.OrchestrateBinding.Get', job.id)).state !== 'running', 30000);
    }
    await page.mouse.move(0, 0);
    await shot('sessions-jobs-done');

    // They stay in Done after a reload.
    await page.reload();
    for (const id of jobs) await page.locator(`[data-column="done"] [data-card$="/${id}"]`).waitFor();
  } finally {
    for (const id of jobs) await goCall(page, 'orchestrate.OrchestrateBinding.CancelJob', id).catch(() => {});
    await app.quit();
  }
}
