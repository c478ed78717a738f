import { describe, expect, it } from 'vitest';
import { argvParts, argvText, clockTime, rememberedView } from './externalAgents';

describe('the Runs command line', () => {
  it('is one part per argument, each quoted on its own, so it wraps between arguments', () => {
    const argv = ['claude', '--resume', '7f3c2a10-5b8e-4c1d-9e2f-a1b2c3d4e5f6', '--permission-mode', 'plan', '-c', 'model_reasoning_effort="high"', "it's"];
    expect(argvParts(argv)).toEqual(['claude', '--resume', '7f3c2a10-5b8e-4c1d-9e2f-a1b2c3d4e5f6', '--permission-mode', 'plan', '-c', `'model_reasoning_effort="high"'`, `'it'\\''s'`]);
    expect(argvText(argv)).toBe(argvParts(argv).join(' '));
  });
});

describe('row times', () => {
  const now = new Date(2026, 10, 10, 15, 30);
  it('show HH:MM today', () => {
    expect(clockTime(new Date(2026, 10, 10, 9, 5).toISOString(), now)).toBe('09:05');
  });
  it('carry the date on another day', () => {
    expect(clockTime(new Date(2026, 10, 9, 23, 59).toISOString(), now)).toBe('Nov 9, 23:59');
    expect(clockTime(new Date(2026, 0, 2, 8, 0).toISOString(), now)).toBe('Jan 2, 08:00');
  });
  it('carry the year when it is not this year', () => {
    expect(clockTime(new Date(2025, 11, 31, 22, 10).toISOString(), now)).toBe('Dec 31 2025, 22:10');
  });
  it('are empty when absent or invalid', () => {
    expect(clockTime('', now)).toBe('');
    expect(clockTime('yesterday', now)).toBe('');
  });
});

describe('the screen remembers its search and selection', () => {
  it('keeps what was set until the app restarts', () => {
    const a = rememberedView();
    a.query = 'checkout';
    a.app = 'claude-code';
    a.selectedKey = 'claude-code:7f3c';
    const b = rememberedView();
    expect([b.query, b.app, b.selectedKey]).toEqual(['checkout', 'claude-code', 'claude-code:7f3c']);
  });
});
