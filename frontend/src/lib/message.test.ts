import { describe, expect, it } from 'vitest';
import { message } from './api/pipeline';
import { repeatsNotice } from './pipeline';

describe('message', () => {
  const cases: [unknown, string][] = [
    [new Error('no local folder is set: add one in Settings → Local Folders'), 'No local folder is set: add one in Settings → Local Folders'],
    ['Error: the task is empty: type what the agent should do', 'The task is empty: type what the agent should do'],
    [new Error('Claude Code is not installed'), 'Claude Code is not installed'],
    [new Error('osFoundry tools are off'), 'osFoundry tools are off'],
    ['', ''],
  ];
  for (const [err, want] of cases) {
    it(`shows ${JSON.stringify(String(err))} starting with a capital letter`, () => {
      expect(message(err)).toBe(want);
    });
  }
});

describe('repeatsNotice', () => {
  const folderErr = 'No local folder is set: add one in Settings → Local Folders';
  it('drops an error the folder notice already says', () => expect(repeatsNotice(folderErr, { noFolder: true, noModel: false })).toBe(true));
  it('keeps it when no notice says it', () => expect(repeatsNotice(folderErr, { noFolder: false, noModel: false })).toBe(false));
  it('drops the no-model error under the model notice', () =>
    expect(repeatsNotice('No model is assigned to the Worker role …, or pick a model in Pipeline → Pipeline Roles', { noFolder: false, noModel: true })).toBe(true));
  it('keeps other errors', () => expect(repeatsNotice('Claude Code is not installed', { noFolder: true, noModel: true })).toBe(false));
});
