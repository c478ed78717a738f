// Settings → Terminal: the checks the screen shows as the person types
// (the same bounds and words as backend/settings/terminal.go, which has
// the last say), and the xterm.js options a pane takes from the settings.
import type { ITerminalOptions, ITheme } from '@xterm/xterm';
import type { Palette, TerminalPrefs } from './api/settings';

export const bounds = {
  fontSize: { min: 8, max: 32 },
  lineHeight: { min: 1, max: 2 },
  scrollback: { min: 1000, max: 100000 },
} as const;

export const cursorStyles = ['block', 'bar', 'underline'] as const;
export type CursorStyle = (typeof cursorStyles)[number];

/** The app's symbol font and monospace, always after the person's fonts
 * (backend/settings TerminalFallback). */
export const fallback = '"osFoundry Symbols", monospace';

/** What panes looked like before the setting existed (DefaultTerminal). */
export const defaults: TerminalPrefs = {
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas',
  fontSize: 13,
  lineHeight: 1,
  cursorStyle: 'block',
  cursorBlink: false,
  scrollback: 5000,
  palette: 'osfoundry-dark',
  keepScrollback: true,
};

/** Monospace fonts the form suggests: what the app uses by default and
 * what common systems ship. */
export const fontSuggestions = [
  defaults.fontFamily,
  '"DejaVu Sans Mono"',
  '"JetBrains Mono", monospace',
  '"Fira Code"',
  '"Cascadia Code", Consolas',
  'Menlo, Monaco',
  '"Ubuntu Mono"',
  '"Source Code Pro"',
];

export type TerminalField = 'fontFamily' | 'fontSize' | 'lineHeight' | 'cursorStyle' | 'scrollback' | 'palette';
export type TerminalProblems = Partial<Record<TerminalField, string>>;

const count = (s: string, c: string) => s.split(c).length - 1;

/** checkTerminal returns a sentence per wrong field (empty when all fit). */
export function checkTerminal(t: TerminalPrefs, palettes: readonly Pick<Palette, 'id'>[]): TerminalProblems {
  const out: TerminalProblems = {};
  const fam = (t.fontFamily ?? '').trim();
  if (!fam) out.fontFamily = 'Font family is empty: name at least one font, e.g. "DejaVu Sans Mono".';
  else if (fam.length > 200) out.fontFamily = 'Font family is too long: at most 200 characters.';
  else if (/[;{}<>\\\n\r\t]/.test(fam)) out.fontFamily = 'Font family may hold font names, quotes and commas only.';
  else if (count(fam, '"') % 2 || count(fam, "'") % 2) out.fontFamily = 'Font family has an unclosed quote.';
  const { fontSize, lineHeight, scrollback } = bounds;
  if (!Number.isInteger(t.fontSize) || t.fontSize < fontSize.min || t.fontSize > fontSize.max)
    out.fontSize = 'Font size must be a whole number from 8 to 32 px.';
  if (!(t.lineHeight >= lineHeight.min && t.lineHeight <= lineHeight.max)) out.lineHeight = 'Line height must be from 1.0 to 2.0.';
  if (!(cursorStyles as readonly string[]).includes(t.cursorStyle)) out.cursorStyle = 'Cursor style must be block, bar or underline.';
  if (!Number.isInteger(t.scrollback) || t.scrollback < scrollback.min || t.scrollback > scrollback.max)
    out.scrollback = 'Scrollback must be from 1,000 to 100,000 lines.';
  if (palettes.length && !palettes.some((p) => p.id === t.palette)) out.palette = `Unknown colour palette "${t.palette}": choose one from the list.`;
  return out;
}

/** themeOf turns a palette into xterm.js's theme. */
export function themeOf(p: Palette): ITheme {
  const a = p.ansi;
  return {
    foreground: p.foreground,
    background: p.background,
    cursor: p.cursor,
    cursorAccent: p.background,
    selectionBackground: p.selection,
    black: a[0], red: a[1], green: a[2], yellow: a[3], blue: a[4], magenta: a[5], cyan: a[6], white: a[7],
    brightBlack: a[8], brightRed: a[9], brightGreen: a[10], brightYellow: a[11],
    brightBlue: a[12], brightMagenta: a[13], brightCyan: a[14], brightWhite: a[15],
  };
}

/** xtermOptions are the options a pane sets from the settings; palette is
 * undefined until the palettes are loaded (the pane keeps its colours). */
export function xtermOptions(t: TerminalPrefs, palette: Palette | undefined): ITerminalOptions {
  const o: ITerminalOptions = {
    fontFamily: `${t.fontFamily.trim()}, ${fallback}`,
    fontSize: t.fontSize,
    lineHeight: t.lineHeight,
    cursorStyle: t.cursorStyle as CursorStyle,
    cursorBlink: t.cursorBlink,
    scrollback: t.scrollback,
  };
  if (palette) o.theme = themeOf(palette);
  return o;
}
