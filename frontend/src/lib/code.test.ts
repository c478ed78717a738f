import { describe, expect, it } from 'vitest';
import type { CodeRun, CodeSettings } from './api/code';
import { filesLine, isolationLine, mergeCommand, runStatus, usesLine } from './code';

const settings = (o: Partial<CodeSettings>): CodeSettings => ({ workspace: 'default', repo: '', enabled: false, uses: '', usesFrom: 'first-folder', folders: [], ...o });
const run = (o: Partial<CodeRun>): CodeRun =>
  ({ id: 'r1', title: 'Fix', model: 'cli:claude:agent', role: 'Worker', folder: '/repo', state: 'done', text: '', progress: [], usage: {}, costUsd: 0, startedAt: 0, finishedAt: 0, workspace: 'default', decision: '', files: [], ...o }) as CodeRun;

describe('usesLine', () => {
  it('names the repository picked on the Code screen', () => {
    expect(usesLine(settings({ repo: '/src/app', uses: '/src/app', usesFrom: 'code' }))).toBe('Runs use /src/app (the repository picked here)');
  });
  it('names the most recently added Local Folder when none is picked, as Settings says it', () => {
    expect(usesLine(settings({ uses: '/src/site', usesFrom: 'first-folder' }))).toBe('Runs use /src/site (the most recently added Local Folder)');
  });
  it('says there is no folder yet', () => {
    expect(usesLine(settings({}))).toBe('No Local Folder yet: add one in Settings → Local Folders');
  });
});

describe('isolationLine', () => {
  it('says what isolation does when on', () => {
    expect(isolationLine(settings({ enabled: true, uses: '/src/app' }))).toBe('Every Codex run and every Claude run that writes gets its own branch and worktree in /src/app. A chat can still turn it off for itself.');
  });
  it('says runs work in the folder itself when off', () => {
    expect(isolationLine(settings({ uses: '/src/app' }))).toBe('Off: runs work directly in the folder (Codex still gets a worktree when the folder is a git repository). A chat can turn it on for itself.');
  });
});

describe('filesLine', () => {
  it('counts files and lines', () => {
    expect(filesLine([{ path: 'a', status: 'modified', added: 3, removed: 1, patch: '' }, { path: 'b', status: 'added', added: 2, removed: 0, patch: '' }])).toBe('2 files changed, +5 −1');
    expect(filesLine([{ path: 'a', status: 'deleted', added: 0, removed: 4, patch: '' }])).toBe('1 file changed, +0 −4');
    expect(filesLine([])).toBe('');
  });
});

describe('runStatus', () => {
  it('reads running, waiting, kept, to review, without changes and failed', () => {
    expect(runStatus(run({ state: 'running' }))).toBe('Running');
    expect(runStatus(run({ state: 'needs_you' }))).toBe('Needs you');
    expect(runStatus(run({ branch: 'osf/run-r1', decision: 'kept' }))).toBe('Kept');
    expect(runStatus(run({ branch: 'osf/run-r1' }))).toBe('To review');
    expect(runStatus(run({}))).toBe('No files changed');
    expect(runStatus(run({ state: 'failed', error: 'boom' }))).toBe('Failed');
    expect(runStatus(run({ state: 'failed', branch: 'osf/run-r1' }))).toBe('Failed — changes kept');
  });
});

describe('mergeCommand', () => {
  it('quotes the repository for the shell', () => {
    expect(mergeCommand('/src/my app', 'osf/run-r1')).toBe("git -C '/src/my app' merge osf/run-r1");
    expect(mergeCommand("/src/it's", 'osf/run-r1')).toBe("git -C '/src/it'\\''s' merge osf/run-r1");
  });
});
