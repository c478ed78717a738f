import { describe, expect, it } from 'vitest';
import { articleDeleteText, deleteError, kbDeleteText, keptNotice, recordDeleteText, syncedIds } from './deletes';

describe('deleting a knowledge base or a Record, in words', () => {
  it('says how many articles go with a knowledge base', () => {
    expect(kbDeleteText('Support', 0, false)).toContain('It has no articles.');
    expect(kbDeleteText('Support', 1, false)).toContain('Its 1 article goes with it.');
    expect(kbDeleteText('Support', 12, false)).toContain('Its 12 articles go with it.');
    expect(kbDeleteText('Support', 12, false)).toMatch(/^“Support” is deleted/);
  });
  it('says teammates’ copies go too only for a synced project', () => {
    expect(kbDeleteText('Support', 3, false)).not.toContain('teammates');
    expect(kbDeleteText('Support', 3, true)).toContain('deleted for your teammates too');
    expect(recordDeleteText('Pricing page', 'Roadmap', false)).toBe('“Pricing page” and its body are removed from Roadmap.');
    expect(recordDeleteText('Pricing page', 'Roadmap', true)).toContain('deleted for your teammates too');
    expect(articleDeleteText('Refunds', 'Support', false)).toBe('“Refunds” is deleted from Support and connected agents no longer find it.');
    expect(articleDeleteText('Refunds', 'Support', true)).toContain('deleted for your teammates too');
  });
  it('knows which projects sync', () => {
    expect(syncedIds(null).size).toBe(0);
    expect(syncedIds({ synced: null }).size).toBe(0);
    const s = syncedIds({ synced: [{ id: 'p1' }, { id: 'p2' }] });
    expect(s.has('p1') && s.has('p2') && !s.has('p3')).toBe(true);
  });
  it('says what to do when a delete fails', () => {
    expect(deleteError('record', new Error('deleting record r1 of channel c: not found'))).toBe(
      'This record was already deleted elsewhere. The screen now shows what is left.',
    );
    const t = deleteError('knowledge base', new Error('database is locked'));
    expect(t).toContain('database is locked');
    expect(t).toContain('Nothing was removed; try again');
  });
});

describe('a delete that met an edit', () => {
  it('names the item and says why the edited copy was kept', () => {
    const why = '“Pricing page” was edited on the team since you deleted it, so it was not deleted: it is back with the edit.';
    expect(keptNotice({ kind: 'record', id: 'r1', containerId: 'c1', title: 'Pricing page', why })).toEqual({ title: 'Record kept: Pricing page', text: why });
    expect(keptNotice({ kind: 'kb', id: 'k1', containerId: 'p1', title: 'Support', why: 'x' }).title).toBe('Knowledge base kept: Support');
    expect(keptNotice({ kind: 'article', id: 'a1', containerId: 'k1', title: 'Refunds', why: 'x' }).title).toBe('Article kept: Refunds');
  });
  it('still says it when the server gave no reason', () => {
    const n = keptNotice({ kind: 'record', id: 'r1', containerId: 'c1', title: '', why: '' });
    expect(n.title).toBe('Record kept: r1');
    expect(n.text).toContain('the edited copy was kept');
  });
});
