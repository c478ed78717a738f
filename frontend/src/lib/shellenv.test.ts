import { describe, expect, it } from 'vitest';
import { pathEntries, shellEnvLine, type ShellEnvStatus } from './api/shellenv';

const base: ShellEnvStatus = { shell: '/bin/zsh', reason: 'no terminal', pending: false, ok: true, timedOut: false, duration: 140e6, path: '/opt/homebrew/bin:/usr/bin', added: ['/opt/homebrew/bin'], dropped: [], set: [] };

describe('shellEnvLine', () => {
  const cases: [string, Partial<ShellEnvStatus>, 'ok' | 'warn' | 'muted', string][] = [
    ['read', {}, 'ok', 'Read your login shell (/bin/zsh) in 140 ms.'],
    ['pending', { pending: true, ok: false }, 'muted', "Reading your login shell's environment…"],
    ['started from a terminal', { reason: '', shell: '', ok: false }, 'muted', 'Using the PATH the app was started with (from a terminal).'],
    [
      'timed out',
      { ok: false, timedOut: true, error: 'timed out: it printed no environment within 5s and was stopped', path: '/usr/bin:/bin' },
      'warn',
      "Could not read your login shell's environment (/bin/zsh): timed out: it printed no environment within 5s and was stopped — using PATH=/usr/bin:/bin",
    ],
    ['windows', { shell: 'registry', duration: 3e6 }, 'ok', 'Read the user and system PATH from the registry in 3 ms.'],
  ];
  for (const [name, over, tone, text] of cases) {
    it(name, () => {
      expect(shellEnvLine({ ...base, ...over })).toEqual({ tone, text });
    });
  }
});

describe('pathEntries', () => {
  it('splits Unix and Windows lists', () => {
    expect(pathEntries('/a/bin::/usr/bin')).toEqual(['/a/bin', '/usr/bin']);
    expect(pathEntries('C:\\Windows\\system32;C:\\Users\\me\\AppData\\Roaming\\npm')).toEqual(['C:\\Windows\\system32', 'C:\\Users\\me\\AppData\\Roaming\\npm']);
  });
});
