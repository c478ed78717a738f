import { mkdirSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assert, goCall, until } from '../lib.mjs';

// Usage: Claude Code's and Codex's plans, from their own files.
// Checks:
//  1. seeded Claude Code sessions add exactly their tokens to today's
//     figure (a response copied into a resumed session counts once), and
//     a Codex rollout's rate_limits become Codex's windows;
//  2. the sidebar's "Usage" opens the screen, which shows today's tokens,
//     the estimated cost marked as an estimate, the 5-hour window with its
//     reset time and share, Codex's 5-hour and 1-week limits, and a chart
//     of the last 7 days;
//  3. the Sessions board's header line says the same, and opens Usage.
const fmtTokens = (n) => {
  const trim = (x) => {
    const s = x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
    return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
  };
  return n < 1000 ? String(n) : n < 1e6 ? trim(n / 1e3) + 'k' : n < 1e9 ? trim(n / 1e6) + 'M' : trim(n / 1e9) + 'B';
};
const fmtUsd = (x) => (x > 0 && x < 0.01 ? '<$0.01' : '$' + x.toFixed(2));
const put = (path, text) => {
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, text);
};
const iso = (ms) => new Date(ms).toISOString();

function claudeRequest(session, at, msgId, reqId, usage) {
  return JSON.stringify({
    parentUuid: null, isSidechain: false, type: 'assistant', uuid: `${session}-${msgId}`, timestamp: iso(at), sessionId: session,
    version: '2.1.328', cwd: '/work/shop', gitBranch: 'main', userType: 'external', requestId: reqId,
    message: { id: msgId, model: 'claude-sonnet-4-5-20250929', role: 'assistant', type: 'message', stop_reason: 'end_turn',
      content: [{ type: 'text', text: 'The totals now match the ledger.' }], usage },
  }) + '\n';
}

function codexTokenCount(at, total, primary, secondary) {
  const u = { input_tokens: total, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: total };
  return JSON.stringify({ timestamp: iso(at), type: 'event_msg', payload: { type: 'token_count',
    info: { total_token_usage: u, last_token_usage: u, model_context_window: 258400 },
    rate_limits: { limit_id: 'codex', limit_name: null, primary, secondary, credits: null, plan_type: 'plus', rate_limit_reached_type: null } } }) + '\n';
}

export default async function ({ page, base, home, shot }) {
  // Today's requests below are one and two minutes old: in the first
  // minutes after midnight they would be yesterday's.
  const sinceMidnight = Date.now() - new Date().setHours(0, 0, 0, 0);
  if (sinceMidnight < 180_000) await new Promise((r) => setTimeout(r, 180_000 - sinceMidnight));
  await page.goto(base + '/#/sessions');
  const before = await goCall(page, 'usage.Binding.Report');

  const now = Date.now();
  const projects = join(home, '.claude', 'projects');
  const big = { input_tokens: 200000, output_tokens: 34000, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000000 };
  // Yesterday's busy window: what today's window is measured against.
  put(join(projects, '-work-shop', 'a1b2c3d4-0000-4000-8000-000000000001.jsonl'),
    claudeRequest('s1', now - 24 * 3600_000, 'msg_e2e_y', 'req_e2e_y', { ...big, cache_read_input_tokens: 1266000 }));
  // Today: two requests, one copied into a resumed session.
  const todayLines = claudeRequest('s2', now - 120_000, 'msg_e2e_1', 'req_e2e_1', big) +
    claudeRequest('s2', now - 60_000, 'msg_e2e_2', 'req_e2e_2', { input_tokens: 1000, output_tokens: 500, cache_creation_input_tokens: 2000, cache_read_input_tokens: 0 });
  put(join(projects, '-work-shop', 'a1b2c3d4-0000-4000-8000-000000000002.jsonl'), todayLines);
  put(join(projects, '-work-shop', 'a1b2c3d4-0000-4000-8000-000000000003.jsonl'), todayLines.split('\n')[0] + '\n');
  const added = 200000 + 34000 + 1000000 + 1000 + 500 + 2000; // 1,237,500 tokens
  const addedCost = (200000 * 3 + 34000 * 15 + 1000000 * 0.3 + 1000 * 3 + 500 * 15 + 2000 * 3.75) / 1e6;

  const d = new Date(now - 60_000);
  const pad = (n) => String(n).padStart(2, '0');
  const rollout = join(home, '.codex', 'sessions', String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate()),
    `rollout-${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-00-01a22a04-e2e0-7000-8000-000000000030.jsonl`);
  const resets5h = Math.floor(now / 1000) + 2 * 3600;
  const resetsWeek = Math.floor(now / 1000) + 3 * 86400;
  put(rollout, codexTokenCount(now - 60_000, 52000, { used_percent: 42, window_minutes: 300, resets_at: resets5h }, { used_percent: 83, window_minutes: 10080, resets_at: resetsWeek }));

  const after = await goCall(page, 'usage.Binding.Report');
  const delta = after.claude.today.tokens - before.claude.today.tokens;
  assert(delta === added, `today's Claude tokens grew by ${delta}, want ${added} (the copied response once)`);
  const costDelta = after.claude.today.costUsd - before.claude.today.costUsd;
  assert(Math.abs(costDelta - addedCost) < 1e-9, `today's estimated cost grew by ${costDelta}, want ${addedCost}`);
  assert(after.codex.primary?.usedPercent === 42 && after.codex.primary.windowMinutes === 300 && after.codex.primary.resetsAt === resets5h * 1000, `codex primary ${JSON.stringify(after.codex.primary)}`);
  assert(after.codex.secondary?.usedPercent === 83 && after.codex.secondary.windowMinutes === 10080, `codex secondary ${JSON.stringify(after.codex.secondary)}`);
  const w = after.claude.window;
  assert(w && w.resetsAt - w.start === 5 * 3600_000 && w.start % 3600_000 === 0 && w.start <= now - 120_000, `current window ${JSON.stringify(w)}`);

  // The screen, from the sidebar.
  const t0 = Date.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Usage', exact: true }).click();
  await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
  const today = page.locator('[data-usage="today"]');
  await today.waitFor();
  const opened = Date.now() - t0;
  const shown = await page.evaluate(() => ({
    tokens: document.querySelector('[data-usage="today"] [data-tokens]')?.textContent,
    cost: document.querySelector('[data-usage="today"] [data-cost]')?.textContent,
    window: document.querySelector('[data-usage-window]')?.textContent ?? '',
    estimate: document.querySelector('[data-estimate]')?.textContent ?? '',
    five: document.querySelector('[data-codex-limit="5-hour"]')?.textContent ?? '',
    week: document.querySelector('[data-codex-limit="1-week"]')?.textContent ?? '',
  }));
  const report = await goCall(page, 'usage.Binding.Report');
  assert(shown.tokens === fmtTokens(report.claude.today.tokens), `today shows ${shown.tokens}, want ${fmtTokens(report.claude.today.tokens)}`);
  assert(shown.cost === fmtUsd(report.claude.today.costUsd), `today's cost shows ${shown.cost}, want ${fmtUsd(report.claude.today.costUsd)}`);
  assert(shown.estimate.includes('Costs are estimates') && shown.estimate.includes('A Pro or Max subscription is not billed per token.'), `estimate note: ${shown.estimate}`);
  const hhmm = (ms) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  // A reset after midnight also names its day ("resets Sat, Dec 5 12:00 AM").
  const resets = new RegExp(`resets (\\w+, \\w+ \\d+ )?${hhmm(w.resetsAt)}`);
  assert(shown.window.includes(`Started ${hhmm(w.start)}`) && resets.test(shown.window), `window: ${shown.window}`);
  assert(shown.window.includes(`${Math.round(report.claude.window.usedPercent)}% of your busiest earlier window`), `window share: ${shown.window}`);
  assert(shown.five.includes('42% used') && new RegExp(`Resets (\\w+, \\w+ \\d+ )?${hhmm(resets5h * 1000)}`).test(shown.five), `codex 5-hour: ${shown.five}`);
  assert(shown.week.includes('83% used'), `codex 1-week: ${shown.week}`);
  await until('the 7-day chart', () => page.locator('[data-usage-chart] canvas').count());
  const legend = await page.locator('[data-usage-chart]').textContent();
  assert(legend.includes('Claude Code') && legend.includes('Codex'), `chart legend: ${legend}`);
  await shot('30-usage');

  // The board's header line.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sessions', exact: true }).click();
  const line = page.locator('[data-usage-line]');
  await line.waitFor();
  const text = await line.textContent();
  const now2 = await goCall(page, 'usage.Binding.Report');
  const want = `Claude Code today ${fmtTokens(now2.claude.today.tokens)} tokens · ≈${fmtUsd(now2.claude.today.costUsd)} · 5-hour window until `;
  const untilRe = new RegExp(`^(\\w+, \\w+ \\d+ )?${hhmm(w.resetsAt)}`); // the day too when it ends after midnight
  assert(text.startsWith(want) && untilRe.test(text.slice(want.length)), `board line "${text}", want it to start "${want}${hhmm(w.resetsAt)}"`);
  assert(text.includes('Codex 5-hour 42% · 1-week 83%'), `board line "${text}" without Codex's limits`);
  await shot('30-usage-board');
  await line.click();
  await page.getByRole('heading', { name: 'Usage', exact: true }).waitFor();
  console.log(`     usage screen shown in ${opened} ms`);
}
