// How the app found the PATH it looks for CLIs in (backend/shellenv/binding.go).
import { service } from '../wails';
import type { shellenv } from '../wailsjs/go/models';

/** The login shell's environment, read once at start (duration in ns). */
export type ShellEnvStatus = shellenv.Result;

const svc = service('shellenv', 'Binding');

export const shellEnvApi = {
  status: () => svc('Status'),
};

/** shellEnvLine is the one line the External AI tab shows under the CLI list. */
export function shellEnvLine(s: ShellEnvStatus): { tone: 'ok' | 'warn' | 'muted'; text: string } {
  const ms = Math.round(s.duration / 1e6);
  if (s.pending) return { tone: 'muted', text: "Reading your login shell's environment…" };
  if (!s.reason) return { tone: 'muted', text: 'Using the PATH the app was started with (from a terminal).' };
  if (!s.ok) {
    const what = s.shell === 'registry' ? 'Could not read PATH from the registry' : `Could not read your login shell's environment (${s.shell})`;
    return { tone: 'warn', text: `${what}: ${s.error || 'no reason given'} — using PATH=${s.path}` };
  }
  if (s.shell === 'registry') return { tone: 'ok', text: `Read the user and system PATH from the registry in ${ms} ms.` };
  return { tone: 'ok', text: `Read your login shell (${s.shell}) in ${ms} ms.` };
}

/** pathEntries splits a PATH for display (";" on Windows, ":" elsewhere). */
export function pathEntries(path: string): string[] {
  const sep = /^[A-Za-z]:[\\/]/.test(path) || path.includes(';') ? ';' : ':';
  return path.split(sep).filter((e) => e !== '');
}
