import { describe, expect, it } from 'vitest';
import { checksText } from './api/forge';

describe('checksText', () => {
  const c = (state: string, total: number, passed: number, failed: number, pending: number) => ({ state, total, passed, failed, pending });
  it.each([
    [c('none', 0, 0, 0, 0), 'no checks'],
    [c('success', 1, 1, 0, 0), 'check passed'],
    [c('success', 3, 3, 0, 0), '3 checks passed'],
    [c('failure', 3, 1, 1, 1), '1 of 3 checks failed'],
    [c('pending', 3, 2, 0, 1), '1 of 3 checks running'],
  ])('%o → %s', (checks, want) => {
    expect(checksText(checks)).toBe(want);
  });
});
