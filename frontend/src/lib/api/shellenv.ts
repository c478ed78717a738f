// How the app found the PATH it looks for CLIs in (backend/shellenv/binding.go).
import { call } from '../wails';

/** shellenv.Result: the login shell's environment, read once at start. */
export interface ShellEnvStatus {
  /** The login shell read; "registry" on Windows; "" when nothing was read. */
  shell: string;
  /** Why it was read: "no terminal" | "PATH unusable"; "" when the start PATH was used as it was. */
  reason: string;
  pending: boolean;
  ok: boolean;
  timedOut: boolean;
  error?: string;
  duration: number; // ns
  /** The PATH in use now. */
  path: string;
  added: string[];
  /** PATH entries left out because they are not existing folders. */
  dropped: string[];
  /** Names of the variables copied from the shell (never values). */
  set: string[];
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>('shellenv', 'Binding', method, ...args);

export const shellEnvApi = {
  status: () => svc<ShellEnvStatus>('Status'),
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
