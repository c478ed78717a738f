import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until, assert, goCall } from '../lib.mjs';

// Verify sign-in in the Connections dialog's External AI tab, with the REAL
// Claude Code and Codex from build/agents:
//  - each row shows the CLI's own version (`--version`);
//  - Claude Code against the fake model: "✓ Signed in"; without its
//    credentials: "Needs sign-in" with the CLI's reason;
//  - Codex whose service cannot be reached (seed/verify.mjs): its live
//    "Reconnecting…" line while checking, the Verify button disabled, the
//    check and then its result kept across a tab switch and a closed
//    dialog, and "Cannot reach OpenAI" from Codex's Reconnecting line, not
//    from the time limit;
//  - Cancel ends a running check at once;
//  - no check leaves a session in the CLIs' own history.
export default async function ({ page, base, tmp, home, shot }) {
  const seed = JSON.parse(readFileSync(join(tmp, 'pipeline-seed.json'), 'utf8'));
  if (seed.missing) throw new Error(seed.missing);
  const push = async (scenario) => assert((await fetch(`${seed.url}/_testkit/push?scenario=${scenario}`, { method: 'POST' })).status === 204, `push ${scenario}`);
  const sessions = (dir) => {
    const out = [];
    const walk = (d) => existsSync(d) && readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.jsonl') && out.push(join(d, e.name))));
    walk(dir);
    return out.sort();
  };
  const claudeHistory = sessions(join(home, '.claude', 'projects'));
  const codexHistory = sessions(join(home, '.codex', 'sessions'));

  await page.goto(base + '/#/terminal');
  const open = async () => {
    await page.getByRole('button', { name: 'Connections' }).click();
    const d = page.getByRole('dialog', { name: 'Connections' });
    await d.getByRole('tab', { name: 'External AI' }).click();
    return d;
  };
  let dialog = await open();
  const row = (agent) => dialog.locator(`[data-cli="${agent}"]`);
  const result = (agent) => row(agent).locator('[data-verify]');
  // verify presses a row's Verify sign-in. The event goes to that button
  // itself, not to a point on the screen: the rows above it change height
  // as results arrive, and a click at a point taken a moment earlier could
  // land on the other row's button.
  const verify = async (agent) => {
    const b = row(agent).getByRole('button', { name: 'Verify sign-in' });
    await until(`${agent}'s Verify sign-in to be enabled`, () => b.isEnabled());
    await b.dispatchEvent('click');
  };
  // shows waits for agent's last result; when it does not come, it says
  // what the row shows and what the backend holds.
  const shows = async (agent, text) => {
    try {
      await result(agent).filter({ hasText: text }).waitFor();
    } catch (e) {
      const said = await row(agent).textContent().catch((x) => String(x));
      const held = await goCall(page, 'roles.Binding.VerifyStates').catch((x) => String(x));
      throw new Error(`${agent} does not show "${text}": the row says ${JSON.stringify(said)}; the backend holds ${JSON.stringify(held)} (${e.message})`);
    }
  };

  // Versions from the binaries themselves.
  for (const agent of ['claude', 'codex']) {
    const path = (await row(agent).locator('.path code').textContent()).trim();
    const want = execFileSync(path, ['--version'], { encoding: 'utf8' }).match(/\d+\.\d+\.\d+/)[0];
    await row(agent).locator('[data-version]').filter({ hasText: want }).waitFor();
    assert((await row(agent).locator('[data-version]').textContent()).trim() === 'v' + want, `${agent} version`);
  }

  // Claude Code signed in (the fake model answers "ok").
  await push('verify');
  await verify('claude');
  await until('✓ Signed in', async () => ((await result('claude').textContent().catch(() => '')) ?? '').includes('✓ Signed in'), 90000);

  // Claude Code without credentials: Needs sign-in, with what it said.
  const settings = join(home, '.claude', 'settings.json');
  const saved = readFileSync(settings, 'utf8');
  writeFileSync(settings, '{}\n');
  try {
    await verify('claude');
    await until('Needs sign-in', async () => ((await result('claude').textContent().catch(() => '')) ?? '').includes('Needs sign-in'), 90000);
    const detail = (await result('claude').textContent()).trim();
    assert(/log ?in/i.test(detail), `the reason from Claude Code: ${detail}`);
    await shot('verify-needs-sign-in');
  } finally {
    writeFileSync(settings, saved);
  }

  // Codex that cannot reach its service.
  const codex = row('codex');
  const t0 = Date.now();
  await verify('codex');
  const status = codex.locator('[data-verify-status]');
  await until("Codex's own Reconnecting line", async () => ((await status.textContent().catch(() => '')) ?? '').includes('Reconnecting'), 15000);
  assert(await codex.getByRole('button', { name: 'Verify sign-in' }).isDisabled(), 'a second Verify cannot start while one runs');
  await shot('verify-codex-reconnecting');
  // Away to another tab and back: the running check is still there.
  await dialog.getByRole('tab', { name: 'Connected' }).click();
  await dialog.getByRole('heading', { name: 'Connected agents' }).waitFor();
  await dialog.getByRole('tab', { name: 'External AI' }).click();
  await until('the running check after a tab switch', async () => (await status.count()) === 1 || (await result('codex').count()) === 1);
  if (Date.now() - t0 < 8000) assert((await status.count()) === 1, 'the check is still running after the tab switch');
  // Close the dialog and open it again: the answer arrives in time.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  dialog = await open();
  await until('Cannot reach OpenAI', async () => ((await result('codex').textContent().catch(() => '')) ?? '').includes('Cannot reach OpenAI'), 25000);
  // Told by Codex's own Reconnecting line, not by running into the time limit.
  const said = (await result('codex').textContent()).trim();
  assert(!said.includes('time limit') && said.includes('Check your network connection'), `the cause and what to do: ${said}`);
  await shot('verify-codex-cannot-reach');
  // The result stays when the tab is shown again.
  await dialog.getByRole('tab', { name: 'Connected' }).click();
  await dialog.getByRole('tab', { name: 'External AI' }).click();
  await shows('codex', 'Cannot reach OpenAI');
  await shows('claude', 'Needs sign-in');

  // Cancel.
  await verify('codex');
  await status.waitFor();
  const c0 = Date.now();
  await codex.getByRole('button', { name: 'Cancel' }).click();
  await result('codex').filter({ hasText: 'Check cancelled.' }).waitFor({ timeout: 5000 });
  assert(Date.now() - c0 < 5000, 'Cancel ends the check at once');
  assert(await codex.getByRole('button', { name: 'Verify sign-in' }).isEnabled(), 'Verify can start again');
  const states = await goCall(page, 'roles.Binding.VerifyStates');
  assert(states.every((s) => !s.running), `no check left running: ${JSON.stringify(states)}`);

  // No trace in the CLIs' own history.
  assert(JSON.stringify(sessions(join(home, '.claude', 'projects'))) === JSON.stringify(claudeHistory), 'Verify added a session to Claude Code\'s history');
  assert(JSON.stringify(sessions(join(home, '.codex', 'sessions'))) === JSON.stringify(codexHistory), 'Verify added a session to Codex\'s history');
}
