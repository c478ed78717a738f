import { describe, expect, it } from 'vitest';
import { ago, localString, ms, today } from './time';

describe('times from the Go side', () => {
  const at = Date.UTC(2026, 11, 4, 17, 30);
  it('read epoch ms and the RFC 3339 exceptions as the same time', () => {
    expect(ms(at)).toBe(at);
    expect(ms('2026-12-04T17:30:00Z')).toBe(at);
    expect(localString('2026-12-04T17:30:00Z')).toBe(localString(at));
    expect(Number.isNaN(ms('not a time'))).toBe(true);
  });
  it('say how long ago in the words the lists show', () => {
    expect(ago(at, at + 30_000)).toBe('just now');
    expect(ago(at, at + 3 * 60_000)).toBe('3 min ago');
    expect(ago('2026-12-04T17:30:00Z', at + 2 * 3600_000)).toBe('2 h ago');
    expect(ago(at, at + 3 * 86400_000)).toBe(new Date(at).toLocaleDateString());
    expect(ago('', at)).toBe('');
  });
  it('tell a time of today from an earlier day', () => {
    expect(today(at, new Date(at + 60_000))).toBe(true);
    expect(today(at, new Date(at + 2 * 86400_000))).toBe(false);
  });
});
