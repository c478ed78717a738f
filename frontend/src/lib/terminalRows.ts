// Rows of xterm.js's DOM renderer, drawn with no-break spaces.
//
// WebKit (WebKitGTK 2.50, the Linux window's web view) keeps one
// TextBreakingPositionCache per web process: when a block's inline layout is
// torn down, each text of five characters or more that splits into three or
// more pieces (words and the spaces between them) is kept with its break
// positions. xterm.js redraws a row by replacing its spans, which tears the
// row's layout down, so every distinct row text ever shown (each frame of a
// spinner, each line of scrolling output) became an entry: a 144-byte slot
// in a hash table kept at most half full, plus the text. The cache trims
// itself only after ten seconds without a new entry, or at five times its
// soft limit: with one spinner on screen the web view grew 0.3 MiB a minute
// (build/scripts/bench-soak.sh).
//
// A no-break space (U+00A0) is no break opportunity, so a row of words is
// one piece and is not kept. Text that breaks elsewhere (hyphens, slashes,
// CJK) still is, far less often. Monospace fonts draw U+00A0 as wide as a
// space, and nothing reads these nodes back: copying, search, links and the
// screen reader read xterm.js's buffer, which keeps the program's spaces.

const NBSP = '\u00a0';

/** joinRowSpaces keeps the rows of a terminal opened under root drawn with
 * no-break spaces: each row xterm.js draws is changed in place (an edit
 * WebKit lays out again without rebuilding the row) before the page is laid
 * out, as a mutation observer runs before layout. Returns the stop function.
 * Other renderers have no .xterm-rows: nothing to do. */
export function joinRowSpaces(root: HTMLElement): () => void {
  const rows = root.querySelector('.xterm-rows');
  if (!rows) return () => {};
  const observer = new MutationObserver((records) => {
    const done = new Set<Node>();
    for (const r of records) {
      if (done.has(r.target)) continue;
      done.add(r.target);
      joinSpaces(r.target);
    }
  });
  // Only new nodes: the observer's own edits are character data.
  observer.observe(rows, { childList: true, subtree: true });
  joinSpaces(rows);
  return () => observer.disconnect();
}

function joinSpaces(under: Node) {
  const walker = document.createTreeWalker(under, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    if (text.data.includes(' ')) text.data = text.data.replaceAll(' ', NBSP);
  }
}
