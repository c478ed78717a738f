import DOMPurify from 'dompurify';
import { describe, expect, it } from 'vitest';
import { render, showImage } from './markdown';

// The renderer shows Markdown that agents wrote: whatever it contains, the
// app window must not run script, follow a javascript: link, or fetch a
// remote image (a tracking pixel) before the person clicks.
const dom = (html: string) => {
  const el = document.createElement('div');
  el.innerHTML = html;
  return el;
};

describe('Markdown safety', () => {
  it('escapes HTML and allows only web links', () => {
    const html = render('# Title <b>\n\n<script>alert(1)</script> [x](javascript:alert(1)) [ok](https://example.com)');
    expect(html).toContain('<h1>Title &lt;b&gt;</h1>');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('javascript:');
    expect(dom(html).querySelector('a')?.getAttribute('href')).toBe('https://example.com');
  });

  it.each([
    ['raw script', '<script>alert(1)</script>'],
    ['event handler', '<img src=x onerror="alert(1)">'],
    ['iframe', '<iframe src="https://example.com"></iframe>'],
    ['mixed-case scheme', '[x](JaVaScRiPt:alert(1))'],
    ['entity-encoded scheme', '[x](&#106;avascript:alert(1))'],
    ['data URL link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['reference link', '[x][r]\n\n[r]: javascript:alert(1)'],
    ['autolink', '<javascript:alert(1)>'],
    ['svg in a table', '| a |\n|---|\n| <svg onload=alert(1)> |'],
  ])('%s runs nothing', (_name, md) => {
    const el = dom(render(md));
    expect(el.querySelector('script, iframe, svg, object, embed, img, [onerror], [onload]')).toBeNull();
    for (const a of el.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').toMatch(/^(https?:|mailto:)/);
  });

  it('shows a remote image only after a click', () => {
    const el = dom(render('![build graph](https://img.example.com/graph.png)'));
    expect(el.querySelector('img')).toBeNull();
    const ph = el.querySelector<HTMLElement>('[data-remote-image]');
    expect(ph).not.toBeNull();
    expect(ph!.textContent).toContain('build graph');
    expect(ph!.textContent).toContain('img.example.com');
    showImage(ph!);
    const img = el.querySelector('img');
    expect(img?.getAttribute('src')).toBe('https://img.example.com/graph.png');
    expect(img?.getAttribute('alt')).toBe('build graph');
    expect(img?.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('drops images of other schemes', () => {
    const el = dom(render('![x](javascript:alert(1)) ![y](file:///etc/passwd)'));
    expect(el.querySelector('img, [data-remote-image]')).toBeNull();
  });

  it('leaves other code\'s DOMPurify as it was', () => {
    render('[x](https://example.com) - [ ] task');
    expect(DOMPurify.sanitize('<input type="text"><a href="/docs">docs</a>')).toBe('<input type="text"><a href="/docs">docs</a>');
  });

  it('opens links outside the window', () => {
    const a = dom(render('see https://example.com/docs')).querySelector('a');
    expect(a?.getAttribute('href')).toBe('https://example.com/docs');
    expect(a?.getAttribute('target')).toBe('_blank');
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer');
  });
});

describe('Markdown as Claude and Codex write it', () => {
  it('renders GFM tables', () => {
    const el = dom(render('| file | lines |\n| --- | ---: |\n| `a.go` | 12 |\n| b.go | 7 |'));
    expect([...el.querySelectorAll('th')].map((t) => t.textContent)).toEqual(['file', 'lines']);
    expect(el.querySelectorAll('tbody tr')).toHaveLength(2);
    expect(el.querySelector('tbody td code')?.textContent).toBe('a.go');
  });

  it('renders nested lists', () => {
    const el = dom(render('1. First\n   - a\n   - b\n2. Second'));
    expect(el.querySelectorAll('ol > li')).toHaveLength(2);
    expect([...el.querySelectorAll('ol > li > ul > li')].map((l) => l.textContent)).toEqual(['a', 'b']);
  });

  it('renders task lists as read-only checkboxes', () => {
    const el = dom(render('- [x] done\n- [ ] todo'));
    const boxes = [...el.querySelectorAll<HTMLInputElement>('li input[type=checkbox]')];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([[true, true], [false, true]]);
  });

  it('highlights fenced code and keeps its text as written', () => {
    const el = dom(render('```ts\nconst a = "<b>";\n```\n\n```\nplain <a>\n```'));
    const [ts, plain] = el.querySelectorAll('pre code');
    expect(ts.textContent).toBe('const a = "<b>";\n');
    expect(ts.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(plain.textContent).toBe('plain <a>\n');
    expect(el.querySelector('b, a')).toBeNull();
  });

  it('highlights the TOML of rules files', () => {
    const el = dom(render('```toml\n[[rule]]\nstate = "blocked"\n```'));
    expect(el.querySelector('pre code')?.className).toContain('language-toml');
    expect(el.querySelector('pre code .hljs-string')?.textContent).toBe('"blocked"');
  });

  it('renders emphasis, strikethrough and inline code', () => {
    const el = dom(render('**bold** *it* ~~gone~~ `x<y`'));
    expect(el.querySelector('strong')?.textContent).toBe('bold');
    expect(el.querySelector('em')?.textContent).toBe('it');
    expect(el.querySelector('del')?.textContent).toBe('gone');
    expect(el.querySelector('code')?.textContent).toBe('x<y');
  });

  it('renders inline help text without a paragraph around it', () => {
    expect(render('Run `osfoundry serve`.', { inline: true })).toBe('Run <code>osfoundry serve</code>.');
  });
});
