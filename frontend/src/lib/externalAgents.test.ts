import { describe, expect, it } from 'vitest';
import { ago, argvText, chatRoute, chips, clockTime, continueAgent, filterSessions, formatBytes, lastUsedTip, matchedInText, ownRunCount, prettyJSON, textStatusLine, toolSummary } from './externalAgents';
import { offsets, rowAt, visibleRange } from './virtual';
import type { AppInfo, Session } from './api/inventory';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 10, 12, 0, 0);

const session = (over: Partial<Session>): Session => ({
  key: 'claude-code:a', app: 'claude-code', appName: 'Claude Code', id: 'a', title: '', folder: '/home/me/shop-api',
  folderName: 'shop-api', branch: 'main', updatedMs: now, path: '/x.jsonl', bytes: 0, ...over,
});

describe('ago', () => {
  it.each([
    [now - 10_000, 'just now'],
    [now - 59_999, 'just now'],
    [now - MIN, '1m ago'],
    [now - 59 * MIN, '59m ago'],
    [now - HOUR, '1h ago'],
    [now - 23 * HOUR - 59 * MIN, '23h ago'],
    [now - DAY, '1d ago'],
    [now - 6 * DAY - 5 * HOUR, '6d ago'],
    [now - 59 * DAY, '59d ago'],
  ])('%s → %s', (ms, want) => {
    expect(ago(now, ms)).toBe(want);
  });
  it('shows the date past 60 days', () => {
    const ms = new Date(2026, 0, 5, 9, 0).getTime();
    expect(ago(ms + 61 * DAY, ms)).toBe('2026-01-05');
  });
  it('shows a dash when the time is unknown', () => {
    expect(ago(now, 0)).toBe('-');
  });
  it('treats a time in the future (clock skew) as just now', () => {
    expect(ago(now, now + 5 * MIN)).toBe('just now');
  });
});

describe('filterSessions', () => {
  const list = [
    session({ key: 'claude-code:1', id: '0b6c6f1e-1', title: 'Fix double charge on checkout retry', branch: 'fix/checkout-retry' }),
    session({ key: 'codex-cli:2', app: 'codex-cli', appName: 'Codex CLI', id: '019a2f1c-2', title: 'Add e2e test', folder: '/home/me/shop-web', folderName: 'shop-web', branch: 'test/e2e' }),
    session({ key: 'gemini-cli:3', app: 'gemini-cli', appName: 'Gemini CLI', id: 'g-3', title: 'Docs', folder: '/srv/docs', folderName: 'docs', branch: '' }),
  ];
  const keys = (ss: Session[]) => ss.map((s) => s.key);

  it.each([
    ['', '', ['claude-code:1', 'codex-cli:2', 'gemini-cli:3']],
    ['CHECKOUT', '', ['claude-code:1']], // title, any case
    ['shop-web', '', ['codex-cli:2']], // folder
    ['test/e2e', '', ['codex-cli:2']], // branch
    ['gemini', '', ['gemini-cli:3']], // app name
    ['019a2f', '', ['codex-cli:2']], // id
    ['  /home/me  ', '', ['claude-code:1', 'codex-cli:2']], // trimmed
    ['', 'codex-cli', ['codex-cli:2']], // chip
    ['shop', 'claude-code', ['claude-code:1']], // both
    ['nothing-like-this', '', []],
  ])('query %j app %j', (q, app, want) => {
    expect(keys(filterSessions(list, q, app))).toEqual(want);
  });

  it('does not match across fields', () => {
    // "retry" ends the title and "/home" starts the folder: no hit for "retry/home".
    expect(filterSessions(list, 'retry/home', '')).toEqual([]);
  });

  it('keeps the order it was given', () => {
    expect(keys(filterSessions([...list].reverse(), 'shop', ''))).toEqual(['codex-cli:2', 'claude-code:1']);
  });
});

describe('chips', () => {
  const apps: AppInfo[] = [
    { app: 'claude-code', name: 'Claude Code', enabled: true, count: 3, ownRuns: 1 },
    { app: 'claude-app', name: 'Claude app', enabled: true, count: 0, ownRuns: 0 },
    { app: 'codex-cli', name: 'Codex CLI', enabled: true, count: 2, ownRuns: 2 },
    { app: 'gemini-cli', name: 'Gemini CLI', enabled: false, count: 4, ownRuns: 0 },
  ];
  it('lists All and each app that is on and has sessions', () => {
    expect(chips(apps)).toEqual([
      { app: '', label: 'All', count: 5 },
      { app: 'claude-code', label: 'Claude Code', count: 3 },
      { app: 'codex-cli', label: 'Codex CLI', count: 2 },
    ]);
  });
  it("leaves osFoundry's own runs out of the counts while they are hidden", () => {
    expect(chips(apps, false)).toEqual([
      { app: '', label: 'All', count: 2 },
      { app: 'claude-code', label: 'Claude Code', count: 2 },
    ]);
    expect(ownRunCount(apps)).toBe(3);
  });
});

describe("osFoundry's own runs and conversation hits", () => {
  const list = [
    session({ key: 'claude-code:mine', id: 'mine', title: 'Fix the retry' }),
    session({ key: 'claude-code:run', id: 'run', title: 'Launch checklist', ownRun: true, runWhy: 'recorded' }),
  ];
  const keys = (ss: Session[]) => ss.map((s) => s.key);
  it('hides them unless asked', () => {
    expect(keys(filterSessions(list, '', '', undefined, { showRuns: false }))).toEqual(['claude-code:mine']);
    expect(keys(filterSessions(list, '', '', undefined, { showRuns: true }))).toEqual(['claude-code:mine', 'claude-code:run']);
    expect(keys(filterSessions(list, 'launch', '', undefined, { showRuns: false }))).toEqual([]);
  });
  it('matches a session whose conversation matched, and says so', () => {
    const hits = new Set(['claude-code:mine']);
    const got = filterSessions(list, 'idempotency key', '', undefined, { showRuns: true, textHits: hits });
    expect(keys(got)).toEqual(['claude-code:mine']);
    expect(matchedInText(got[0], 'idempotency key', hits)).toBe(true);
    expect(matchedInText(got[0], 'retry', hits)).toBe(false); // the title matched
  });
  it('says when the time is only the file time', () => {
    const local = (ms: number) => new Date(ms).toISOString();
    expect(lastUsedTip(session({ timeFrom: 'recorded' }), local)).toBe('Last message 2026-11-10T12:00:00.000Z');
    expect(lastUsedTip(session({ timeFrom: 'file' }), local)).toBe("2026-11-10T12:00:00.000Z (the file's time: the session records none)");
  });
});

describe('toolSummary', () => {
  it.each([
    ['{"command":"go test ./..."}', 'go test ./...'],
    ['{"command":["rg","retry"]}', 'rg retry'],
    ['{"file_path":"/src/pay.go","old_string":"a"}', '/src/pay.go'],
    ['{"pattern":"retry\\\\(","path":"src"}', 'src'],
    ['{"a":1}', '{"a":1}'],
    ['not json\n  at all', 'not json at all'],
  ])('%s → %s', (input, want) => {
    expect(toolSummary(input)).toBe(want);
  });
  it('caps a long summary', () => {
    expect(toolSummary(JSON.stringify({ command: 'x'.repeat(1000) })).length).toBe(240);
  });
});

describe('argvText', () => {
  it('quotes only what a shell would need, for display', () => {
    expect(argvText(['claude', '--resume', 'abc-1', '--model', 'claude-opus-4-5'])).toBe('claude --resume abc-1 --model claude-opus-4-5');
    expect(argvText(['codex', '-c', 'model_reasoning_effort="high"', "it's", ''])).toBe(`codex -c 'model_reasoning_effort="high"' 'it'\\''s' ''`);
  });
});

describe('formatting helpers', () => {
  it('formats sizes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(168 * 1024 * 1024)).toBe('168 MB');
    expect(formatBytes(2.07 * 1024 ** 3)).toBe('2.1 GB');
  });
  it('pretty-prints JSON input and leaves other text alone', () => {
    expect(prettyJSON('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJSON('{oops')).toBe('{oops');
  });
  it('shows a row time as HH:MM, nothing when absent or invalid', () => {
    expect(clockTime(new Date(2026, 10, 4, 9, 5).toISOString(), new Date(2026, 10, 4, 18, 0))).toBe('09:05');
    expect(clockTime('')).toBe('');
    expect(clockTime('yesterday')).toBe('');
  });
});

describe('virtual list layout', () => {
  const offs = offsets(5, [10, undefined, 30, 0, 20], 50);
  it('uses measured heights and the estimate elsewhere', () => {
    expect(Array.from(offs)).toEqual([0, 10, 60, 90, 140, 160]);
  });
  it('finds the row at a pixel', () => {
    expect([0, 9, 10, 59, 60, 159, 1000].map((y) => rowAt(offs, y))).toEqual([0, 0, 1, 1, 2, 4, 4]);
  });
  it('draws only the rows in view plus overscan', () => {
    expect(visibleRange(offs, 0, 60, 0)).toEqual({ start: 0, end: 2 });
    expect(visibleRange(offs, 65, 30, 1)).toEqual({ start: 1, end: 5 });
    expect(visibleRange(offsets(0, [], 50), 0, 100, 3)).toEqual({ start: 0, end: 0 });
  });
  it('keeps a million-row list to a handful of drawn rows', () => {
    const big = offsets(1_000_000, [], 40);
    const r = visibleRange(big, 20_000_000, 800, 6);
    expect(r.end - r.start).toBe(20 + 12);
    expect(r.start).toBe(500_000 - 6);
  });
});

describe('Continue here', () => {
  it.each([
    ['claude-code', 'claude'],
    ['claude-app', 'claude'],
    ['codex-cli', 'codex'],
    ['codex-app', 'codex'],
    ['gemini-cli', null],
    ['cursor', null],
  ])('%s continues with %s', (app, want) => {
    expect(continueAgent(app)).toBe(want);
  });
  it('finds the chat screen only when it is built', () => {
    expect(chatRoute(['/terminal', '/external-agents'])).toBeNull();
    expect(chatRoute(['/terminal', '/chat'])).toBe('/chat');
  });
});

describe('textStatusLine', () => {
  const st = { on: true, running: false, indexed: 0, total: 0, skipped: 0 };
  it.each([
    [null, ''],
    [{ ...st, on: false }, ''],
    [{ ...st, running: true, indexed: 12, total: 40 }, 'Indexing conversations… 12 of 40'],
    [{ ...st, indexed: 40, total: 40, skipped: 2 }, '40 conversations indexed (2 unreadable)'],
    [{ ...st, indexed: 1, total: 1 }, '1 conversation indexed'],
    [{ ...st, error: 'database is locked' }, 'Indexing stopped: database is locked'],
  ])('%j → %s', (s, want) => {
    expect(textStatusLine(s)).toBe(want);
  });
});
