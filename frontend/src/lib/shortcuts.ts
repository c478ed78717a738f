// The app's keyboard shortcuts: what each does, its default key on this
// platform, how a key press is named, and which keys a person may choose
// (Settings → Keyboard). The defaults keep away from what programs in a
// pane need: no plain Ctrl+letter (shells, editors and agents use them);
// ⌘ on macOS, where programs in a terminal never see it.

export type ActionId =
  | 'newPane' | 'nextPane' | 'prevPane' | 'closePane'
  | 'focusSlot1' | 'focusSlot2' | 'focusSlot3' | 'focusSlot4'
  | 'board' | 'needsYou' | 'sheet';

export interface Action {
  id: ActionId;
  label: string;
  group: 'Panes' | 'Slots' | 'Go to';
}

/** actions in the order the sheet and Settings → Keyboard list them. */
export const actions: Action[] = [
  { id: 'newPane', label: 'New pane', group: 'Panes' },
  { id: 'nextPane', label: 'Next pane', group: 'Panes' },
  { id: 'prevPane', label: 'Previous pane', group: 'Panes' },
  { id: 'closePane', label: 'Close pane', group: 'Panes' },
  { id: 'focusSlot1', label: 'Focus slot 1', group: 'Slots' },
  { id: 'focusSlot2', label: 'Focus slot 2', group: 'Slots' },
  { id: 'focusSlot3', label: 'Focus slot 3', group: 'Slots' },
  { id: 'focusSlot4', label: 'Focus slot 4', group: 'Slots' },
  { id: 'board', label: 'Go to the board (Sessions)', group: 'Go to' },
  { id: 'needsYou', label: 'Go to what needs you', group: 'Go to' },
  { id: 'sheet', label: 'Show keyboard shortcuts', group: 'Go to' },
];

export type Keys = Record<ActionId, string>;

export function actionLabel(id: string): string {
  return actions.find((a) => a.id === id)?.label ?? id;
}

/** defaultKeys: ⌘ on macOS; elsewhere Ctrl+Shift (as terminal apps use
 * for their own tabs), Alt+digit for slots, and Ctrl+. as before. */
export function defaultKeys(mac: boolean): Keys {
  if (mac)
    return {
      newPane: 'Meta+T', nextPane: 'Shift+Meta+]', prevPane: 'Shift+Meta+[', closePane: 'Meta+W',
      focusSlot1: 'Meta+1', focusSlot2: 'Meta+2', focusSlot3: 'Meta+3', focusSlot4: 'Meta+4',
      board: 'Shift+Meta+B', needsYou: 'Meta+.', sheet: '?',
    };
  return {
    newPane: 'Ctrl+Shift+T', nextPane: 'Ctrl+Shift+]', prevPane: 'Ctrl+Shift+[', closePane: 'Ctrl+Shift+W',
    focusSlot1: 'Alt+1', focusSlot2: 'Alt+2', focusSlot3: 'Alt+3', focusSlot4: 'Alt+4',
    board: 'Ctrl+Shift+B', needsYou: 'Ctrl+.', sheet: '?',
  };
}

/** effective: the defaults with the person's changes ('' is off). */
export function effective(defaults: Keys, changed: Record<string, string> | null | undefined): Keys {
  const out = { ...defaults };
  for (const a of actions) if (changed && a.id in changed) out[a.id] = changed[a.id];
  return out;
}

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

const named = new Set(['PageUp', 'PageDown', 'Home', 'End', 'Tab', 'Enter', 'Escape', 'Backspace', 'Delete', 'Insert', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
const punct: Record<string, string> = {
  BracketLeft: '[', BracketRight: ']', Backslash: '\\', Semicolon: ';', Quote: "'", Comma: ',', Period: '.', Slash: '/', Backquote: '`', Equal: '=', Minus: '-',
};
const modifiers = new Set(['Control', 'Shift', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS', 'Dead', 'Unidentified', 'Process']);

/** keyName names a key press as Settings stores it: modifiers in the
 * order Ctrl, Alt, Shift, Meta, then the key ("Ctrl+Shift+T", "Alt+1",
 * "?"); '' for a modifier alone. Letters and digits are named by their
 * place on the keyboard, so Ctrl+Shift+1 is not read as "!". */
export function keyName(e: KeyLike): string {
  if (modifiers.has(e.key)) return '';
  const mods = e.ctrlKey || e.altKey || e.metaKey;
  let k = '';
  let shift = e.shiftKey;
  if (named.has(e.key)) k = e.key;
  else if (e.key === ' ' || e.code === 'Space') k = 'Space';
  else if (/^F\d{1,2}$/.test(e.key)) k = e.key;
  else if (e.code && /^Key[A-Z]$/.test(e.code)) k = e.code.slice(3);
  else if (e.code && /^Digit\d$/.test(e.code)) k = e.code.slice(5);
  else if (!mods && e.key.length === 1) {
    // A character typed on its own ("?"): Shift is part of the character.
    k = /^[a-z]$/.test(e.key) ? e.key.toUpperCase() : e.key;
    if (!/^[A-Z]$/.test(k)) shift = false;
  } else if (e.code && punct[e.code]) k = punct[e.code];
  else if (e.key.length === 1) k = e.key.toUpperCase();
  if (!k) return '';
  return [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', shift && 'Shift', e.metaKey && 'Meta', k].filter(Boolean).join('+');
}

/** The keys Settings → Keyboard accepts (backend/settings/layout.go checks the same). */
const keyPattern = /^(Ctrl\+)?(Alt\+)?(Shift\+)?(Meta\+)?([A-Z0-9]|F[0-9]{1,2}|[[\]\\;',./`=?-]|PageUp|PageDown|Home|End|Tab|Enter|Escape|Backspace|Delete|Insert|Arrow(Up|Down|Left|Right)|Space)$/;

/** plain: a key without Ctrl, Alt or ⌘ types something, so the app takes
 * it only when the focus is not in a terminal pane or a text field. */
export function isPlain(key: string): boolean {
  return !/(^|\+)(Ctrl|Alt|Meta)\+/.test(key);
}

/** formatKey shows a key the platform's way: ⌘⇧T on macOS, Ctrl+Shift+T elsewhere. */
export function formatKey(key: string, mac: boolean): string {
  if (!key) return '';
  const parts = key.split('+');
  // "Ctrl++" never occurs: "+" is not a key we accept; the last part is the key.
  const k = parts.pop()!;
  const arrows: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→' };
  const shown = arrows[k] ?? (k === 'PageUp' ? 'Page Up' : k === 'PageDown' ? 'Page Down' : k);
  if (mac) {
    const sym: Record<string, string> = { Ctrl: '⌃', Alt: '⌥', Shift: '⇧', Meta: '⌘' };
    // macOS orders them ⌃⌥⇧⌘.
    return parts.map((p) => sym[p] ?? p).join('') + shown;
  }
  return [...parts.map((p) => (p === 'Meta' ? 'Super' : p)), shown].join('+');
}

/** typingTarget: the focus is in a text field or a terminal pane (xterm's
 * textarea), where a plain key is text. */
export function typingTarget(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || (el as HTMLElement).isContentEditable === true;
}

/** match is the action a key press belongs to, or null: then the key goes
 * where the focus is (in a pane, to its program). */
export function match(e: KeyLike, keys: Keys, typing: boolean): ActionId | null {
  const k = keyName(e);
  if (!k) return null;
  for (const a of actions) {
    if (keys[a.id] === k) return isPlain(k) && typing ? null : a.id;
  }
  return null;
}

/** Keys the app itself uses, which no shortcut may take. */
function appKeys(mac: boolean): Record<string, string> {
  return mac ? { 'Meta+Q': 'quits osFoundry', 'Meta+C': 'copies', 'Meta+V': 'pastes' } : { 'Ctrl+Q': 'quits osFoundry' };
}

export interface KeyCheck {
  /** Why the key is refused; nothing is saved. */
  error?: string;
  /** What the person should know about an accepted key. */
  note?: string;
}

/** checkKey says whether action id may have key, given the other keys. */
export function checkKey(id: ActionId, key: string, keys: Keys, mac: boolean): KeyCheck {
  if (key === '') return {};
  const shown = formatKey(key, mac);
  if (!keyPattern.test(key)) return { error: `${shown || 'That key'} cannot be used: press a letter, digit, punctuation or function key, with Ctrl, Alt or Shift${mac ? ' or ⌘' : ''} if you like.` };
  const other = actions.find((a) => a.id !== id && keys[a.id] === key);
  if (other) return { error: `${shown} is already the shortcut for “${other.label}”. Give that one another key or turn it off first.` };
  const app = appKeys(mac)[key];
  if (app) return { error: `${shown} ${app}; choose another key.` };
  if (isPlain(key)) {
    if (/^(Shift\+)?(Enter|Tab|Backspace|Escape|Space|Delete)$/.test(key)) return { error: `${shown} is needed for typing and moving around; add Ctrl${mac ? ' or ⌘' : ' or Alt'}.` };
    return { note: `${shown} works when the focus is not in a terminal pane or a text field, where it is typed as usual.` };
  }
  if (!mac && /^Ctrl\+[A-Z\[\]\\]$/.test(key)) return { note: `Programs in a pane use ${shown} (shells, editors, agents): with this shortcut they no longer get it.` };
  if (!mac && /^Alt\+[A-Z]$/.test(key)) return { note: `Shells use ${shown} (word moves and edits): with this shortcut they no longer get it.` };
  return {};
}

/** hint is the tooltip suffix for an action: " (Ctrl+Shift+T)", '' when off. */
export function hint(key: string, mac: boolean): string {
  return key ? ` (${formatKey(key, mac)})` : '';
}
