import { describe, expect, it } from 'vitest';
import { message } from './api/pipeline';

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
