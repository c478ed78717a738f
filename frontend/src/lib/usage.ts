// Words and numbers of the Usage screen and the board's usage line.
import type { UsageLimit, UsageReport } from './api/usage';

/** tokens says a token count short: 950, 12.3k, 4.56M, 1.2B. */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return trim(n / 1e3) + 'k';
  if (n < 1e9) return trim(n / 1e6) + 'M';
  return trim(n / 1e9) + 'B';
}

function trim(x: number): string {
  const s = x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s; // 1.50 → 1.5, 500 stays
}

/** usd says an estimated cost: "$0.42", "$12.30", "<$0.01". */
export function usd(x: number): string {
  if (x > 0 && x < 0.01) return '<$0.01';
  return '$' + x.toFixed(2);
}

/** percent rounds to whole percent: "42%". */
export function percent(x: number): string {
  return Math.round(x) + '%';
}

/** windowName names a window by its length: "5-hour", "1-week" (backend usage.WindowName). */
export function windowName(minutes: number): string {
  if (!minutes) return 'usage';
  if (minutes % (60 * 24 * 7) === 0) return `${minutes / (60 * 24 * 7)}-week`;
  if (minutes % (60 * 24) === 0) return `${minutes / (60 * 24)}-day`;
  if (minutes % 60 === 0) return `${minutes / 60}-hour`;
  return `${minutes}-minute`;
}

/** resetWords says when a window resets: "14:00" today, else "Tue 14:00". */
export function resetWords(at: number, now = Date.now()): string {
  const d = new Date(at);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (d.toDateString() === new Date(now).toDateString()) return time;
  return d.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' }) + ' ' + time;
}

/** limits lists Codex's recorded windows that have not reset yet. */
export function codexLimits(r: UsageReport): { name: string; limit: UsageLimit }[] {
  const out: { name: string; limit: UsageLimit }[] = [];
  for (const l of [r.codex.primary, r.codex.secondary]) {
    if (l && (!l.resetsAt || l.resetsAt > r.now)) out.push({ name: windowName(l.windowMinutes), limit: l });
  }
  return out;
}

/** boardLine is the Sessions board's one line, "" when neither CLI left any files. */
export function boardLine(r: UsageReport): string {
  const parts: string[] = [];
  if (r.claude.found) {
    let s = `Claude Code today ${tokens(r.claude.today.tokens)} tokens · ≈${usd(r.claude.today.costUsd)}`;
    const w = r.claude.window;
    if (w) s += ` · 5-hour window until ${resetWords(w.resetsAt, r.now)}` + (w.limitTokens ? ` (${percent(w.usedPercent)})` : '');
    parts.push(s);
  }
  const lims = codexLimits(r);
  if (lims.length) parts.push('Codex ' + lims.map((l) => `${l.name} ${percent(l.limit.usedPercent)}`).join(' · '));
  else if (r.codex.found) parts.push(`Codex today ${tokens(r.codex.today)} tokens`);
  return parts.join('  |  ');
}
