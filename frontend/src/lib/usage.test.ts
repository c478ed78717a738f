import { describe, expect, it } from 'vitest';
import { boardLine, tokens, usd, windowName } from './usage';
import type { UsageReport } from './api/usage';

describe('usage words', () => {
  it('shortens token counts', () => {
    expect([tokens(950), tokens(4210), tokens(17710), tokens(1_250_000), tokens(2e9), tokens(500_000), tokens(1e6)]).toEqual(['950', '4.21k', '17.7k', '1.25M', '2B', '500k', '1M']);
  });
  it('says costs and windows', () => {
    expect([usd(0), usd(0.004), usd(12.3)]).toEqual(['$0.00', '<$0.01', '$12.30']);
    expect([windowName(300), windowName(10080), windowName(1440), windowName(0)]).toEqual(['5-hour', '1-week', '1-day', 'usage']);
  });
  it('leaves out windows that already reset', () => {
    const now = Date.UTC(2026, 11, 4, 15, 30);
    const totals = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0, tokens: 4210, costUsd: 0.0055, requests: 3, unpriced: 0 };
    const r = {
      now, weekStart: 0, days: [], priceSource: '', priceDate: '', skipped: 0,
      claude: { found: true, files: 2, today: totals, week: totals },
      codex: { found: true, files: 1, today: 10, week: 10, planType: '', recordedAt: now,
        primary: { usedPercent: 42.5, windowMinutes: 300, resetsAt: now - 1000 },
        secondary: { usedPercent: 81, windowMinutes: 10080, resetsAt: now + 86400_000 } },
    } as UsageReport;
    expect(boardLine(r)).toBe('Claude Code today 4.21k tokens · ≈<$0.01  |  Codex 1-week 81%');
  });
});
