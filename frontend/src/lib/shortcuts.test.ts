import { describe, expect, it } from 'vitest';
import { actions, checkKey, defaultKeys, effective, formatKey, keyName, match } from './shortcuts';

const ev = (key: string, code: string, mods: Partial<{ ctrl: boolean; alt: boolean; shift: boolean; meta: boolean }> = {}) => ({
  key, code, ctrlKey: !!mods.ctrl, altKey: !!mods.alt, shiftKey: !!mods.shift, metaKey: !!mods.meta,
});

describe('shortcuts', () => {
  it('names a key press by its place on the keyboard, modifiers in a fixed order', () => {
    expect(keyName(ev('T', 'KeyT', { ctrl: true, shift: true }))).toBe('Ctrl+Shift+T');
    expect(keyName(ev('!', 'Digit1', { ctrl: true, shift: true }))).toBe('Ctrl+Shift+1');
    expect(keyName(ev('}', 'BracketRight', { ctrl: true, shift: true }))).toBe('Ctrl+Shift+]');
    expect(keyName(ev('¡', 'Digit1', { alt: true }))).toBe('Alt+1');
    expect(keyName(ev('?', 'Slash', { shift: true }))).toBe('?');
    expect(keyName(ev('.', 'Period', { meta: true }))).toBe('Meta+.');
    expect(keyName(ev('Control', 'ControlLeft', { ctrl: true }))).toBe('');
    expect(keyName(ev('PageDown', 'PageDown', { ctrl: true }))).toBe('Ctrl+PageDown');
  });

  it('the defaults leave plain Ctrl+letters to programs and give every action its own key', () => {
    for (const mac of [false, true]) {
      const keys = defaultKeys(mac);
      const used = actions.map((a) => keys[a.id]);
      expect(new Set(used).size).toBe(used.length);
      for (const a of actions) expect(checkKey(a.id, keys[a.id], keys, mac).error).toBeUndefined();
      if (!mac) for (const k of used) expect(k).not.toMatch(/^Ctrl\+[A-Z]$/);
    }
  });

  it('a key goes to the app only when it is a shortcut; a plain key only outside text', () => {
    const keys = defaultKeys(false);
    expect(match(ev('T', 'KeyT', { ctrl: true, shift: true }), keys, true)).toBe('newPane');
    expect(match(ev('r', 'KeyR', { ctrl: true }), keys, true)).toBeNull(); // the shell's history search
    expect(match(ev('?', 'Slash', { shift: true }), keys, false)).toBe('sheet');
    expect(match(ev('?', 'Slash', { shift: true }), keys, true)).toBeNull();
    const off = effective(keys, { newPane: '' });
    expect(match(ev('T', 'KeyT', { ctrl: true, shift: true }), off, true)).toBeNull();
    expect(match(ev('.', 'Period', { ctrl: true }), keys, true)).toBe('needsYou');
  });

  it('refuses a key another shortcut or the app has, with a message naming it', () => {
    const keys = defaultKeys(false);
    expect(checkKey('board', 'Ctrl+Shift+T', keys, false).error).toBe('Ctrl+Shift+T is already the shortcut for “New pane”. Give that one another key or turn it off first.');
    expect(checkKey('board', 'Ctrl+Q', keys, false).error).toBe('Ctrl+Q quits osFoundry; choose another key.');
    expect(checkKey('board', 'Enter', keys, false).error).toMatch(/needed for typing/);
    expect(checkKey('board', 'Ctrl+Shift+!', keys, false).error).toMatch(/cannot be used/);
    expect(checkKey('board', 'Ctrl+R', keys, false)).toEqual({ note: 'Programs in a pane use Ctrl+R (shells, editors, agents): with this shortcut they no longer get it.' });
    expect(checkKey('board', 'Ctrl+Alt+B', keys, false)).toEqual({});
    expect(checkKey('newPane', 'Ctrl+Shift+T', keys, false)).toEqual({}); // its own key
    expect(checkKey('newPane', '', keys, false)).toEqual({}); // off
  });

  it('shows keys the platform way', () => {
    expect(formatKey('Shift+Meta+]', true)).toBe('⇧⌘]');
    expect(formatKey('Ctrl+Shift+PageDown', false)).toBe('Ctrl+Shift+Page Down');
    expect(formatKey('Alt+1', false)).toBe('Alt+1');
    expect(formatKey('', false)).toBe('');
  });
});
