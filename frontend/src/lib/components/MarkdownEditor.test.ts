import { flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { SaveResult } from '../api/notes';
import { DraftStore } from '../notes/drafts';
import { MemDrafts, MemStorage } from '../notes/drafts.testkit';
import { TextTabState } from '../notes/text.svelte';
import MarkdownEditor from './MarkdownEditor.svelte';

// The one Markdown editor of Notes, Knowledge bases and Records: when the
// text changed under the person's typing, its banner says so in the words
// of the thing edited, Compare shows both sides, and Re-apply merges the
// person's change into the current text and saves it.

/** Stored is one text under the store's version rule: a save names the version it was made on. */
class Stored {
  text = 'one\ntwo\nthree';
  version = 1;
  saves: string[] = [];
  save = async (expected: number, text: string): Promise<SaveResult> => {
    if (expected !== this.version) {
      return { saved: false, version: this.version, tab_version: 0, current: { tab_id: 't', kind: 'text', title: '', position: 0, tab_version: 0, updated_at: '', text: this.text } };
    }
    this.saves.push(text);
    this.text = text;
    return { saved: true, version: ++this.version, tab_version: 0 };
  };
}

let target: HTMLElement;
let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  if (view) unmount(view);
  view = null;
  target?.remove();
});

function open(props: { noun?: string; viewLabel?: string } = {}) {
  const stored = new Stored();
  const ed = new TextTabState('n1', 't1', new DraftStore(new MemDrafts(), new MemStorage()), stored.save);
  ed.load(stored.text, stored.version);
  target = document.createElement('div');
  document.body.append(target);
  view = mount(MarkdownEditor, { target, props: { ed, label: 'Note text', ...props } });
  flushSync();
  return { ed, stored, el: target };
}

/** type puts value into the text area as a person typing would. */
function type(el: HTMLElement, value: string) {
  const area = el.querySelector<HTMLTextAreaElement>('textarea[aria-label="Note text"]')!;
  area.value = value;
  area.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

/** agentWrites changes the stored text the way an assistant's accepted edit does, and tells the editor. */
function agentWrites(stored: Stored, ed: TextTabState, text: string) {
  stored.text = text;
  stored.version++;
  ed.server(text, stored.version);
  flushSync();
}

function button(el: HTMLElement, name: string): HTMLButtonElement {
  const b = [...el.querySelectorAll('button')].find((x) => x.textContent?.trim() === name);
  if (!b) throw new Error(`no button ${name}: ${[...el.querySelectorAll('button')].map((x) => x.textContent?.trim()).join(', ')}`);
  return b;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await tick();
  flushSync();
};

describe('MarkdownEditor', () => {
  it('shows no banner while nothing conflicts, and says what is unsaved', () => {
    const { el } = open();
    expect(el.querySelector('[data-sync-error]')).toBeNull();
    expect(el.querySelector('[data-save-status]')?.textContent).toBe('Saved');
    type(el, 'one\ntwo\nthree\nfour');
    expect(el.querySelector('[data-save-status]')?.textContent).toBe('Unsaved changes · draft kept on this computer');
  });

  it('names the thing edited when the text changed under the typing', () => {
    const { ed, stored, el } = open({ noun: 'article' });
    type(el, 'one\ntwo\nthree\nmine');
    agentWrites(stored, ed, 'ONE\ntwo\nthree');
    const banner = el.querySelector('[data-sync-error]')!;
    expect(banner.getAttribute('data-sync-error')).toBe('remote');
    expect(banner.querySelector('strong')?.textContent).toBe('This article changed while you were editing (now version 2).');
    expect(el.querySelector('[data-save-status]')?.textContent).toBe('Not saved · draft kept');
    expect(button(el, 'Save').disabled).toBe(true);
  });

  it('compare shows the draft beside the current version, and hides again', () => {
    const { ed, stored, el } = open();
    type(el, 'one\ntwo\nthree\nmine');
    agentWrites(stored, ed, 'ONE\ntwo\nthree');
    expect(el.querySelector('[data-compare]')).toBeNull();
    button(el, 'Compare').click();
    flushSync();
    const side = (s: string) => [...el.querySelectorAll(`[data-side="${s}"]`)].map((c) => c.textContent).filter((t) => t !== '');
    expect(side('mine')).toEqual(['+one', 'two', 'three', '+mine']);
    expect(side('current')).toEqual(['+ONE', 'two', 'three']);
    expect(el.textContent).toContain('Current · version 2');
    expect(button(el, 'Hide compare').getAttribute('aria-pressed')).toBe('true');
    button(el, 'Hide compare').click();
    flushSync();
    expect(el.querySelector('[data-compare]')).toBeNull();
  });

  it('re-apply puts the change on the current version, saves it and says so', async () => {
    const { ed, stored, el } = open();
    type(el, 'one\ntwo\nthree\nmine');
    agentWrites(stored, ed, 'ONE\ntwo\nthree');
    button(el, 'Compare').click();
    flushSync();
    button(el, 'Re-apply my change').click();
    await settle();
    expect(stored.saves).toEqual(['ONE\ntwo\nthree\nmine']);
    expect(el.querySelector('[data-sync-error]')).toBeNull();
    expect(el.querySelector('[data-compare]')).toBeNull();
    expect(el.querySelector('[role=status]')?.textContent?.trim()).toBe('Your change was re-applied to the current version and saved.');
    expect(el.querySelector<HTMLTextAreaElement>('textarea')?.value).toBe('ONE\ntwo\nthree\nmine');
    expect(el.querySelector('[data-save-status]')?.textContent).toBe('Saved');
  });

  it('a refused save says it was not saved, and discard takes the current text', async () => {
    const { ed, stored, el } = open({ noun: 'record' });
    type(el, 'one\nmine\nthree');
    stored.text = 'one\ntheirs\nthree';
    stored.version = 3; // written meanwhile, no event reached the editor
    button(el, 'Save').click();
    await settle();
    expect(el.querySelector('[data-sync-error]')?.getAttribute('data-sync-error')).toBe('save');
    expect(el.querySelector('[data-sync-error] strong')?.textContent).toBe('Sync error: not saved. This record changed since you opened it (now version 3).');
    button(el, 'Discard my draft').click();
    flushSync();
    button(el, 'Discard my draft for good').click();
    flushSync();
    expect(el.querySelector('[data-sync-error]')).toBeNull();
    expect(ed.text).toBe('one\ntheirs\nthree');
    expect(el.querySelector<HTMLTextAreaElement>('textarea')?.value).toBe('one\ntheirs\nthree');
    expect(stored.saves).toEqual([]);
  });

  it('names the Edit / Preview switch as asked and previews the Markdown', () => {
    const { el } = open({ viewLabel: 'Body view' });
    expect(el.querySelector('[role=group]')?.getAttribute('aria-label')).toBe('Body view');
    type(el, 'some **bold** text');
    button(el, 'Preview').click();
    flushSync();
    expect(el.querySelector('[data-preview] strong')?.textContent).toBe('bold');
    expect(el.querySelector('textarea')).toBeNull();
  });
});
