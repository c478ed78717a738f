import { describe, expect, it } from 'vitest';
import { ago, byLine } from './when';

describe('knowledge article by-line', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it('says when and who', () => {
    expect(byLine({ updated_at: '2026-12-01T11:57:00Z', updated_by: 'command line' }, now)).toBe('updated 3 min ago by command line');
    expect(byLine({ updated_at: '2026-12-01T11:59:30Z', updated_by: 'you' }, now)).toBe('updated just now by you');
  });
  it('leaves out an unknown author', () => {
    expect(byLine({ updated_at: '2026-12-01T09:00:00Z', updated_by: '' }, now)).toBe('updated 3 h ago');
  });
  it('says nothing for a bad time', () => {
    expect(ago('not a time', now)).toBe('');
  });
});
