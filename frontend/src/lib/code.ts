// What the Code screen says about a workspace's isolation and its runs.
// Pure: unit-tested in logic.test.ts.
import type { ChangedFile, CodeRun, CodeSettings } from './api/code';
import { CURRENT_FOLDER } from './folders';

/** usesLine names the folder isolated runs work in and why that one. */
export function usesLine(s: CodeSettings): string {
  if (!s.uses) return 'No Local Folder yet: add one in Settings → Local Folders';
  return `Runs use ${s.uses} (${s.usesFrom === 'code' ? 'the repository picked here' : CURRENT_FOLDER})`;
}

/** isolationLine says what the switch does in its current position. */
export function isolationLine(s: CodeSettings): string {
  if (s.enabled) return `Every Codex run and every Claude run that writes gets its own branch and worktree in ${s.uses}. A chat can still turn it off for itself.`;
  return 'Off: runs work directly in the folder (Codex still gets a worktree when the folder is a git repository). A chat can turn it on for itself.';
}

/** filesLine sums a run's changed files: "2 files changed, +5 −1". */
export function filesLine(files: ChangedFile[]): string {
  if (!files.length) return '';
  const add = files.reduce((n, f) => n + f.added, 0);
  const del = files.reduce((n, f) => n + f.removed, 0);
  return `${files.length} ${files.length === 1 ? 'file' : 'files'} changed, +${add} −${del}`;
}

/** runStatus is the badge of an isolated run. */
export function runStatus(r: CodeRun): string {
  if (r.state === 'running') return 'Running';
  if (r.state === 'paused') return 'Paused';
  if (r.state === 'needs_you') return 'Needs you';
  if (r.state === 'failed') return r.branch ? 'Failed — changes kept' : 'Failed';
  if (!r.branch) return 'No files changed';
  return r.decision === 'kept' ? 'Kept' : 'To review';
}

/** statusLetter marks a file in the list like `git status --short`. */
export function statusLetter(f: ChangedFile): string {
  return { added: 'A', deleted: 'D', modified: 'M', renamed: 'R' }[f.status] ?? 'M';
}

/** mergeCommand is the command that merges a kept branch, quoted for a POSIX shell. */
export function mergeCommand(repo: string, branch: string): string {
  return `git -C '${repo.replace(/'/g, `'\\''`)}' merge ${branch}`;
}
