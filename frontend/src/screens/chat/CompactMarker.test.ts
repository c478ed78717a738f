import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Compaction, Message } from '../../lib/api/pipeline';
import { compactable, markersAfter } from '../../lib/compaction';
import CompactMarker from './CompactMarker.svelte';

const c: Compaction = {
  id: 1, uptoMessageId: 2, summary: 'The user wants **zebra** remembered.', model: 'cli:claude', reason: 'button', turns: 2, createdAt: 0,
};
const msg = (id: number, role: Message['role']): Message => ({ id, role, text: 'm' + id, createdAt: 0 });

let target: HTMLElement;
let comp: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (comp) unmount(comp);
  comp = null;
  target?.remove();
});

function show(x: Compaction) {
  target = document.createElement('div');
  document.body.append(target);
  comp = mount(CompactMarker, { target, props: { compaction: x } });
  flushSync();
  return target;
}

describe('CompactMarker', () => {
  it('says where the chat was compacted and keeps the summary folded until asked', () => {
    const el = show(c);
    expect(el.querySelector('[data-compaction]')?.textContent).toContain('Compacted — earlier turns summarised');
    const toggle = el.querySelector<HTMLButtonElement>('button[aria-expanded]')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(el.querySelector('[data-summary]')).toBeNull();
    toggle.click();
    flushSync();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(el.querySelector('[data-summary] strong')?.textContent).toBe('zebra');
    expect(el.textContent).toContain('2 turns');
  });

  it('says when a run compacted the chat on its own', () => {
    const el = show({ ...c, reason: 'auto', turns: 1 });
    expect(el.textContent).toContain('1 turn ');
    expect(el.textContent).toContain('automatically');
  });
});

describe('compaction placement', () => {
  it('puts each marker after the last message it summarised', () => {
    const m = markersAfter([c, { ...c, id: 2, uptoMessageId: 5 }]);
    expect(m.get(2)?.id).toBe(1);
    expect(m.get(5)?.id).toBe(2);
  });

  it('offers Compact only with turns since the last compaction', () => {
    expect(compactable([], [])).toBe(false);
    expect(compactable([msg(1, 'user'), msg(2, 'assistant')], [])).toBe(true);
    expect(compactable([msg(1, 'user'), msg(2, 'assistant')], [c])).toBe(false);
    expect(compactable([msg(1, 'user'), msg(2, 'assistant'), msg(3, 'error')], [c])).toBe(false);
    expect(compactable([msg(1, 'user'), msg(2, 'assistant'), msg(3, 'user')], [c])).toBe(true);
  });
});
