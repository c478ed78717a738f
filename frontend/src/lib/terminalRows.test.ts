import { describe, expect, it } from 'vitest';
import { joinRowSpaces } from './terminalRows';

// The DOM xterm.js's renderer draws: a .xterm-rows container, a div a row,
// a span a run of cells of one style.
function screen(rows: string[][]): { root: HTMLElement; rows: HTMLElement } {
  const root = document.createElement('div');
  const container = document.createElement('div');
  container.className = 'xterm-rows';
  for (const spans of rows) container.append(row(spans));
  root.append(container);
  return { root, rows: container };
}

function row(spans: string[]): HTMLElement {
  const div = document.createElement('div');
  div.append(...spans.map(span));
  return div;
}

function span(text: string): HTMLElement {
  const s = document.createElement('span');
  s.textContent = text;
  return s;
}

const texts = (rows: HTMLElement) => [...rows.children].map((r) => r.textContent);
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('joinRowSpaces', () => {
  it('draws the rows already there with no-break spaces', () => {
    const { root, rows } = screen([['$ ls -la'], ['total 0']]);
    joinRowSpaces(root);
    expect(texts(rows)).toEqual(['$\u00a0ls\u00a0-la', 'total\u00a00']);
  });

  it('joins each row xterm.js draws again, before the page is laid out', async () => {
    const { root, rows } = screen([['one'], ['two']]);
    joinRowSpaces(root);
    rows.children[1].replaceChildren(span('| working… 12'), span(' (esc to interrupt)'));
    rows.append(row(['a new row']));
    await settle();
    expect(texts(rows)).toEqual(['one', '|\u00a0working…\u00a012\u00a0(esc\u00a0to\u00a0interrupt)', 'a\u00a0new\u00a0row']);
  });

  it('edits the text in place: the nodes xterm.js made stay', async () => {
    const { root, rows } = screen([['x']]);
    joinRowSpaces(root);
    const s = span('a b c d');
    rows.children[0].replaceChildren(s);
    await settle();
    expect(rows.children[0].firstChild).toBe(s);
    expect(s.firstChild!.nodeValue).toBe('a\u00a0b\u00a0c\u00a0d');
  });

  it('stops when asked, and does nothing without the DOM renderer', async () => {
    const { root, rows } = screen([['x']]);
    const stop = joinRowSpaces(root);
    stop();
    rows.children[0].replaceChildren(span('a b'));
    await settle();
    expect(texts(rows)).toEqual(['a b']);
    const canvas = document.createElement('div');
    canvas.textContent = 'x y';
    joinRowSpaces(canvas)();
    expect(canvas.textContent).toBe('x y');
  });
});
