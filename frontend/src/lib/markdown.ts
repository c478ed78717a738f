// Markdown as Claude, Codex and people write it (CommonMark + GFM tables,
// task lists, strikethrough, fenced code) turned into HTML the app window
// can show. marked parses, highlight.js colours code, DOMPurify has the last
// word on what reaches the page. The rules on top of the libraries:
//  - raw HTML in the source is shown as text, never as markup;
//  - links go to http(s) or mailto only and open outside the window;
//  - a remote image is a button until clicked (no tracking pixel loads on
//    sight), and images of any other scheme show their alt text only.
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdownLang from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { Marked, type Tokens } from 'marked';

// The languages agents answer in most (ini covers TOML, the app's rules
// files); the rest show as plain code (each
// grammar costs bundle size, the whole set ~190 KB more).
for (const [name, lang] of Object.entries({ bash, css, diff, go, ini, javascript, json, markdown: markdownLang, python, rust, sql, typescript, xml, yaml }))
  hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const WEB_URL = /^https?:\/\//i;
const SAFE_URL = /^(?:https?:|mailto:)/i;

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const marked = new Marked({
  gfm: true,
  // No HTML blocks: a line starting with a tag is an ordinary paragraph
  // whose tags show as text (below), so the Markdown after them still counts.
  tokenizer: {
    html() {
      return undefined;
    },
  },
  renderer: {
    // Raw HTML is text: an agent's "<b>" or "<script>" shows as typed.
    html({ text }) {
      return esc(text);
    },
    code({ text, lang }) {
      const name = (lang ?? '').trim().split(/\s+/)[0].toLowerCase();
      const known = name && hljs.getLanguage(name) ? name : '';
      const body = known ? hljs.highlight(text, { language: known, ignoreIllegals: true }).value : esc(text);
      return `<pre><code class="hljs${known ? ' language-' + esc(known) : ''}">${body}\n</code></pre>\n`;
    },
    image({ href, text }: Tokens.Image) {
      if (!WEB_URL.test(href)) return esc(text);
      const label = text ? `Show image “${esc(text)}” from ${esc(hostOf(href))}` : `Show image from ${esc(hostOf(href))}`;
      return `<button type="button" class="md-image" data-remote-image data-src="${esc(href)}" data-alt="${esc(text)}">${label}</button>`;
    },
  },
});

const allowedTags = [
  'a', 'blockquote', 'br', 'button', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'input', 'li', 'ol', 'p', 'pre', 's',
  'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
];
const allowedAttr = ['href', 'title', 'class', 'type', 'checked', 'disabled', 'align', 'start', 'data-src', 'data-alt', 'data-remote-image'];

// A DOMPurify of our own: the hooks below must not change how any other
// code (or library) in the window sanitizes.
let purify: ReturnType<typeof DOMPurify> | null = null;
function purifier() {
  if (purify) return purify;
  purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (SAFE_URL.test(href)) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer');
      } else el.replaceWith(...el.childNodes); // a refused link is its text
    } else if (el.tagName === 'INPUT') {
      // Only the read-only checkboxes of task lists.
      if (el.getAttribute('type') !== 'checkbox') el.remove();
      else el.setAttribute('disabled', '');
    } else if (el.tagName === 'BUTTON' && !(el.hasAttribute('data-remote-image') && WEB_URL.test(el.getAttribute('data-src') ?? ''))) {
      el.replaceWith(...el.childNodes);
    }
  });
  return purify;
}

export interface RenderOptions {
  /** inline renders one line of help text: no paragraph around it. */
  inline?: boolean;
}

/** render turns Markdown into sanitized HTML. */
export function render(md: string, opts: RenderOptions = {}): string {
  const src = (md ?? '').replace(/\r\n?/g, '\n');
  const html = opts.inline ? marked.parseInline(src, { async: false }) : marked.parse(src, { async: false });
  return purifier().sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: [...allowedAttr, 'target', 'rel'],
    ALLOWED_URI_REGEXP: SAFE_URL,
    // Attributes whose values are not URLs (DOMPurify checks the rest against ALLOWED_URI_REGEXP).
    ADD_URI_SAFE_ATTR: ['data-alt', 'type', 'align', 'start'],
    ALLOW_DATA_ATTR: false,
  });
}

/** showImage turns a remote-image button (see render) into the image, on the person's click. */
export function showImage(button: HTMLElement) {
  const src = button.dataset.src ?? '';
  if (!WEB_URL.test(src)) return;
  const img = document.createElement('img');
  img.setAttribute('src', src);
  img.setAttribute('alt', button.dataset.alt ?? '');
  img.setAttribute('referrerpolicy', 'no-referrer');
  img.setAttribute('loading', 'lazy');
  img.className = 'md-img';
  button.replaceWith(img);
}
