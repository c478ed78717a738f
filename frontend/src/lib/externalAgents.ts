// Pure logic of the External agents screen (tested in externalAgents.test.ts).
import type { AppInfo, Session, TextStatus } from './api/inventory';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** ago formats when a session was last used, as list rows show it ("6d ago");
 * the same rules as inventory.Ago in Go. */
export function ago(nowMs: number, ms: number): string {
  if (!ms || ms <= 0) return '-';
  const d = nowMs - ms;
  if (d < MIN) return 'just now';
  if (d < HOUR) return `${Math.floor(d / MIN)}m ago`;
  if (d < DAY) return `${Math.floor(d / HOUR)}h ago`;
  if (d < 60 * DAY) return `${Math.floor(d / DAY)}d ago`;
  const t = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}`;
}

/** haystack is what the search box matches: title, folder, branch, app
 * name and session id (never message bodies). */
export function haystack(s: Session): string {
  return [s.title, s.folder, s.branch, s.appName, s.app, s.id].join('\u0000').toLowerCase();
}

/** What the list shows besides the search and the app chip. */
export interface ListOptions {
  /** showRuns shows osFoundry's own runs (hidden by default). */
  showRuns?: boolean;
  /** textHits are the keys of sessions whose conversation matched the
   * query ("search in conversations"); they match besides the haystack. */
  textHits?: ReadonlySet<string>;
}

/** filterSessions keeps the sessions of app ('' = all) whose title, folder,
 * branch, app name or id contains query (case-insensitive), or whose
 * conversation matched it (opts.textHits), in the given order (the backend
 * sends them newest first). osFoundry's own runs are left out unless
 * opts.showRuns. */
export function filterSessions(list: Session[], query: string, app: string, hay: (s: Session) => string = haystack, opts: ListOptions = { showRuns: true }): Session[] {
  const q = query.trim().toLowerCase();
  const runs = opts.showRuns ?? false;
  if (!q && !app && runs) return list;
  return list.filter((s) => (runs || !s.ownRun) && (!app || s.app === app) && (!q || hay(s).includes(q) || !!opts.textHits?.has(s.key)));
}

/** matchedInText reports whether a listed session is there only because its
 * conversation matched (the row then says so). */
export function matchedInText(s: Session, query: string, textHits: ReadonlySet<string> | undefined, hay: (s: Session) => string = haystack): boolean {
  const q = query.trim().toLowerCase();
  return !!q && !!textHits?.has(s.key) && !hay(s).includes(q);
}

/** ownRunCount is how many osFoundry runs the apps hold (the "Show
 * osFoundry runs" filter's count). */
export function ownRunCount(apps: AppInfo[]): number {
  return apps.filter((a) => a.enabled).reduce((n, a) => n + (a.ownRuns ?? 0), 0);
}

/** lastUsedTip is the row time's tooltip: the exact time, and whether it is
 * one the session records or only its file's time. */
export function lastUsedTip(s: Session, local: (ms: number) => string): string {
  if (!s.updatedMs) return 'The session records no time';
  const when = local(s.updatedMs);
  return s.timeFrom === 'file' ? `${when} (the file's time: the session records none)` : `Last message ${when}`;
}

export interface Chip {
  app: string; // '' is "All"
  label: string;
  count: number;
}

/** chips lists "All" and one chip per app that is on and has sessions, in
 * the backend's app order; osFoundry's own runs are counted only when they
 * are shown. */
export function chips(apps: AppInfo[], showRuns = true): Chip[] {
  const count = (a: AppInfo) => (showRuns ? a.count : a.count - (a.ownRuns ?? 0));
  const on = apps.filter((a) => a.enabled && count(a) > 0);
  const total = on.reduce((n, a) => n + count(a), 0);
  return [{ app: '', label: 'All', count: total }, ...on.map((a) => ({ app: a.app, label: a.name, count: count(a) }))];
}

/** toolSummary is the one-line gist of a tool call's JSON input: the command,
 * file, pattern or query it names, else the compact JSON. */
export function toolSummary(input: string): string {
  let v: unknown;
  try {
    v = JSON.parse(input);
  } catch {
    return oneLine(input);
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    for (const k of ['command', 'cmd', 'file_path', 'path', 'filePath', 'pattern', 'query', 'url', 'prompt', 'description']) {
      const x = o[k];
      if (typeof x === 'string' && x) return oneLine(x);
      if (Array.isArray(x) && x.length && x.every((e) => typeof e === 'string')) return oneLine(x.join(' '));
    }
  }
  return oneLine(typeof v === 'string' ? v : JSON.stringify(v));
}

/** prettyJSON indents a tool call's JSON input for the expanded row. */
export function prettyJSON(input: string): string {
  try {
    return JSON.stringify(JSON.parse(input), null, 2);
  } catch {
    return input;
  }
}

function oneLine(s: string, max = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** clockTime shows a row's ISO timestamp in local time: "09:05" today,
 * "Nov 9, 23:59" on another day this year, "Dec 31 2025, 22:10" before
 * ('' if none or invalid). */
export function clockTime(iso: string | undefined, now: Date = new Date()): string {
  if (!iso) return '';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return '';
  const hm = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
  if (t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate()) return hm;
  const day = `${MONTHS[t.getMonth()]} ${t.getDate()}`;
  return t.getFullYear() === now.getFullYear() ? `${day}, ${hm}` : `${day} ${t.getFullYear()}, ${hm}`;
}

/** formatBytes shows a transcript's size ("168 MB"). */
export function formatBytes(n: number): string {
  if (!n || n < 1024) return `${n || 0} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** argvParts quotes each argument of an argv the way a POSIX shell would
 * need it, one string per argument (the Runs line wraps between them).
 * Display only: the app never runs a shell string. */
export function argvParts(argv: string[]): string[] {
  return argv.map((a) => (a !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`));
}

/** argvText shows an argv for reading (argvParts joined by spaces). */
export function argvText(argv: string[]): string {
  return argvParts(argv).join(' ');
}

/** What the External agents screen shows, kept while the app runs so the
 * search, app filter and selected session are still there on coming back. */
export interface RememberedView {
  query: string;
  app: string;
  selectedKey: string | null;
  showRuns: boolean;
}

const remembered: RememberedView = { query: '', app: '', selectedKey: null, showRuns: false };

/** rememberedView is the one place the screen keeps its search and selection. */
export function rememberedView(): RememberedView {
  return remembered;
}

/** continueAgent is the CLI that "Continue here" runs for a session of app,
 * or null when the app's sessions cannot continue in the app's chat. */
export function continueAgent(app: string): 'claude' | 'codex' | null {
  if (app === 'claude-code' || app === 'claude-app') return 'claude';
  if (app === 'codex-cli' || app === 'codex-app') return 'codex';
  return null;
}

/** chatRoute picks the chat screen among the available routes, if built. */
export function chatRoute(paths: string[]): string | null {
  return paths.find((p) => p === '/chat' || p === '/chats') ?? null;
}

/** minTextQuery is the shortest query the conversation index answers
 * (inventory.MinTextQuery). */
export const minTextQuery = 3;

/** textStatusLine says how far "search in conversations" is. */
export function textStatusLine(st: TextStatus | null): string {
  if (!st || !st.on) return '';
  if (st.error) return `Indexing stopped: ${st.error}`;
  const unread = st.skipped ? ` (${st.skipped} unreadable)` : '';
  if (st.running) return `Indexing conversations… ${st.indexed} of ${st.total}${unread}`;
  return `${st.indexed} ${st.indexed === 1 ? 'conversation' : 'conversations'} indexed${unread}`;
}
