import { describe, expect, it } from 'vitest';
import { checkTerminal, defaults, xtermOptions, fallback } from './terminalPrefs';
import type { Palette } from './api/settings';

const palettes = [{ id: 'osfoundry-dark' }, { id: 'dracula' }];

describe('checkTerminal', () => {
  const cases: [string, Partial<typeof defaults>, Record<string, string>][] = [
    ['the defaults', {}, {}],
    ['the largest values', { fontSize: 32, lineHeight: 2, scrollback: 100000, cursorStyle: 'underline', palette: 'dracula' }, {}],
    ['an empty font', { fontFamily: '   ' }, { fontFamily: 'Font family is empty: name at least one font, e.g. "DejaVu Sans Mono".' }],
    ['CSS in the font', { fontFamily: 'Mono; color: red' }, { fontFamily: 'Font family may hold font names, quotes and commas only.' }],
    ['an unclosed quote', { fontFamily: '"Fira Code, monospace' }, { fontFamily: 'Font family has an unclosed quote.' }],
    ['a font too small', { fontSize: 7 }, { fontSize: 'Font size must be a whole number from 8 to 32 px.' }],
    ['a fractional size', { fontSize: 12.5 }, { fontSize: 'Font size must be a whole number from 8 to 32 px.' }],
    ['a size that is not a number', { fontSize: NaN }, { fontSize: 'Font size must be a whole number from 8 to 32 px.' }],
    ['line height too big', { lineHeight: 2.1 }, { lineHeight: 'Line height must be from 1.0 to 2.0.' }],
    ['an unknown cursor', { cursorStyle: 'beam' }, { cursorStyle: 'Cursor style must be block, bar or underline.' }],
    ['scrollback too short', { scrollback: 999 }, { scrollback: 'Scrollback must be from 1,000 to 100,000 lines.' }],
    ['scrollback too long', { scrollback: 100001 }, { scrollback: 'Scrollback must be from 1,000 to 100,000 lines.' }],
    ['an unknown palette', { palette: 'neon' }, { palette: 'Unknown colour palette "neon": choose one from the list.' }],
    ['two wrong fields', { fontSize: 40, scrollback: 10 }, {
      fontSize: 'Font size must be a whole number from 8 to 32 px.',
      scrollback: 'Scrollback must be from 1,000 to 100,000 lines.',
    }],
  ];
  for (const [name, change, want] of cases) {
    it(name, () => expect(checkTerminal({ ...defaults, ...change }, palettes)).toEqual(want));
  }
});

describe('xtermOptions', () => {
  const dracula: Palette = {
    id: 'dracula', name: 'Dracula', dark: true, foreground: '#f8f8f2', background: '#282a36', cursor: '#f8f8f2', selection: '#44475a',
    ansi: ['#21222c', '#ff5555', '#50fa7b', '#f1fa8c', '#bd93f9', '#ff79c6', '#8be9fd', '#f8f8f2',
      '#6272a4', '#ff6e6e', '#69ff94', '#ffffa5', '#d6acff', '#ff92df', '#a4ffff', '#ffffff'],
  };
  it('appends the fallback fonts and maps the palette', () => {
    const o = xtermOptions({ ...defaults, fontFamily: ' "Fira Code" ', fontSize: 16, cursorStyle: 'bar' }, dracula);
    expect(o.fontFamily).toBe(`"Fira Code", ${fallback}`);
    expect(o.fontSize).toBe(16);
    expect(o.cursorStyle).toBe('bar');
    expect(o.theme?.background).toBe('#282a36');
    expect(o.theme?.red).toBe('#ff5555');
    expect(o.theme?.brightWhite).toBe('#ffffff');
  });
  it('leaves the colours alone until the palettes are loaded', () => {
    expect(xtermOptions(defaults, undefined).theme).toBeUndefined();
  });
});
