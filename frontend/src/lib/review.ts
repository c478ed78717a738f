// The Review view's diff rows: git's unified diff of one file, parsed with
// jsdiff (parsePatch), as unified rows or side-by-side pairs, each line
// with its numbers in the base (old) and the branch (new) so a comment
// sits on the line it was written on; and highlight.js per line. Pure:
// unit-tested.
import { parsePatch } from 'diff';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

for (const [name, lang] of Object.entries({ bash, css, go, ini, javascript, json, markdown, python, rust, sql, typescript, xml, yaml }))
  if (!hljs.getLanguage(name)) hljs.registerLanguage(name, lang);

export type LineKind = 'ctx' | 'add' | 'del';
export interface DiffLine {
  kind: LineKind;
  old: number; // 0 on an added line
  new: number; // 0 on a removed line
  text: string;
}
export type UnifiedRow = { kind: 'hunk'; text: string } | ({ kind: LineKind } & DiffLine);
export interface SplitRow {
  kind: 'hunk' | 'pair';
  text?: string; // the hunk header
  left?: DiffLine; // the base's line (ctx or del)
  right?: DiffLine; // the branch's line (ctx or add)
}

/** unifiedRows reads one file's unified diff into rows with line numbers. */
export function unifiedRows(patch: string): UnifiedRow[] {
  const out: UnifiedRow[] = [];
  for (const file of parsePatch(patch)) {
    for (const h of file.hunks) {
      out.push({ kind: 'hunk', text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` });
      let o = h.oldStart;
      let n = h.newStart;
      for (const l of h.lines) {
        const c = l[0];
        const text = l.slice(1);
        if (c === '+') out.push({ kind: 'add', old: 0, new: n++, text });
        else if (c === '-') out.push({ kind: 'del', old: o++, new: 0, text });
        else if (c === ' ') out.push({ kind: 'ctx', old: o++, new: n++, text });
        // "\ No newline at end of file" is not a line of either side.
      }
    }
  }
  return out;
}

/** splitRows pairs a hunk's removed lines with the added lines after them,
 * side by side; context lines show on both sides. */
export function splitRows(rows: UnifiedRow[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) out.push({ kind: 'pair', left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const r of rows) {
    if (r.kind === 'hunk') {
      flush();
      out.push({ kind: 'hunk', text: r.text });
    } else if (r.kind === 'del') {
      if (adds.length) flush();
      dels.push(r);
    } else if (r.kind === 'add') adds.push(r);
    else {
      flush();
      out.push({ kind: 'pair', left: r, right: r });
    }
  }
  flush();
  return out;
}

const byExt: Record<string, string> = {
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript', ts: 'typescript', tsx: 'typescript', svelte: 'xml',
  go: 'go', py: 'python', rs: 'rust', sh: 'bash', bash: 'bash', zsh: 'bash', css: 'css', json: 'json', md: 'markdown',
  html: 'xml', xml: 'xml', svg: 'xml', yml: 'yaml', yaml: 'yaml', toml: 'ini', ini: 'ini', sql: 'sql',
};

/** languageOf names the highlight.js grammar for a path ("" for plain text). */
export function languageOf(path: string): string {
  const base = path.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (byExt[base.slice(dot + 1).toLowerCase()] ?? '') : '';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** highlightLine is one line's HTML: highlight.js tokens (it escapes the
 * text), or the escaped text. Each line alone: a block comment spanning
 * lines colours only its first, which a diff of hunks cannot avoid. */
export function highlightLine(text: string, lang: string): string {
  if (!lang || text.length > 2000) return esc(text);
  try {
    return hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return esc(text);
  }
}

/** commentKey is where a comment sits: a file's line on one side. */
export const commentKey = (path: string, side: string, line: number) => `${side}:${line}:${path}`;

/** lineSide is the side and number a comment on this diff line takes: the
 * branch's line, or the base's for a removed one. */
export function lineSide(l: DiffLine): { side: 'new' | 'old'; line: number } {
  return l.kind === 'del' ? { side: 'old', line: l.old } : { side: 'new', line: l.new };
}

/** totals sums the files' counts ("+12 −3 in 4 files"). */
export function totals(files: { added: number; removed: number }[]): string {
  const a = files.reduce((s, f) => s + f.added, 0);
  const r = files.reduce((s, f) => s + f.removed, 0);
  return `+${a} −${r} in ${files.length} ${files.length === 1 ? 'file' : 'files'}`;
}

/** A stretch of a file's diff drawn as one piece of HTML: rows up to a
 * bound, cut after a line with comments (the comments follow it). */
export interface Segment {
  key: string;
  rows: UnifiedRow[] | SplitRow[];
  /** the lines whose comments come after the segment */
  after: DiffLine[];
}

/** segmentsOf cuts rows into segments of at most `size` rows, and after
 * every row holding a line in `marked` (comment keys of lines with
 * comments or an open comment box). */
export function segmentsOf(rows: (UnifiedRow | SplitRow)[], path: string, marked: Set<string>, size = 200): Segment[] {
  const out: Segment[] = [];
  let cur: (UnifiedRow | SplitRow)[] = [];
  let start = 0;
  const linesOf = (r: UnifiedRow | SplitRow): DiffLine[] => {
    if (r.kind === 'hunk') return [];
    if (r.kind === 'pair') {
      const p = r as SplitRow;
      const ls: DiffLine[] = [];
      if (p.left && p.left.kind === 'del') ls.push(p.left);
      if (p.right) ls.push(p.right);
      return ls;
    }
    return [r as DiffLine];
  };
  rows.forEach((r, i) => {
    cur.push(r);
    const after = linesOf(r).filter((l) => {
      const s = lineSide(l);
      return marked.has(commentKey(path, s.side, s.line));
    });
    if (after.length || cur.length >= size || i === rows.length - 1) {
      out.push({ key: `${start}-${i}`, rows: cur as UnifiedRow[] | SplitRow[], after });
      cur = [];
      start = i + 1;
    }
  });
  return out;
}

const lnButton = (l: DiffLine | undefined, n: number) =>
  l ? `<button class="ln" data-side="${lineSide(l).side}" data-n="${lineSide(l).line}" title="Comment on this line">${n || ''}</button>` : '<span class="ln empty"></span>';

/** segmentHtml is a segment's rows as HTML (text escaped, or highlighted
 * when lang is given). Line-number buttons carry the side and line a
 * comment on them takes. */
export function segmentHtml(seg: Segment, layout: 'unified' | 'split', lang: string): string {
  const code = (l: DiffLine) => (lang ? highlightLine(l.text, lang) : esc(l.text));
  const mark = { add: '+', del: '−', ctx: ' ' };
  let h = '';
  for (const r of seg.rows) {
    if (r.kind === 'hunk') {
      h += `<div class="r hunk">${esc((r as { text: string }).text)}</div>`;
    } else if (layout === 'unified') {
      const l = r as DiffLine;
      const s = lineSide(l);
      h += `<div class="r ${l.kind}" data-line="${s.side}:${s.line}">${lnButton(l, l.old)}${lnButton(l, l.new)}<span class="m">${mark[l.kind]}</span><span class="c">${code(l)}</span></div>`;
    } else {
      const p = r as SplitRow;
      const side = (l: DiffLine | undefined, n: number) =>
        l ? `${lnButton(l, n)}<span class="c ${l.kind}">${code(l)}</span>` : '<span class="ln empty"></span><span class="c empty"></span>';
      h += `<div class="r pair">${side(p.left, p.left?.old ?? 0)}${side(p.right, p.right?.new ?? 0)}</div>`;
    }
  }
  return h;
}
