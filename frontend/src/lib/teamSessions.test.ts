import { describe, expect, it } from 'vitest';
import { answersNote, browserLine, deviceLine, otherDevices, quietNote, stateLabel, switchNote, WHAT_IS_SENT } from './teamSessions';
import type { SharedDevice } from './api/teamSessions';

const laptop: SharedDevice = {
  name: 'laptop',
  updated_at: '2026-12-04T10:00:00Z',
  current: false,
  sessions: [
    { kind: 'chat', title: 'Plan', state: 'running' },
    { kind: 'terminal', title: 'Claude Code in shop-api', state: 'needs_you', line: 'Allow edit of main.go?' },
  ],
};
const desk: SharedDevice = { name: 'desk', updated_at: '2026-12-04T10:00:00Z', current: false, sessions: [{ kind: 'terminal', title: 'npm', state: 'idle' }] };
const here: SharedDevice = { ...desk, name: 'this one', current: true };

describe('sharing sessions', () => {
  it('says exactly what leaves, and what never does', () => {
    for (const w of ['kind', 'title', 'state', 'only while it needs you', 'terminal text', 'pane history', 'External agents', 'never leave']) {
      expect(WHAT_IS_SENT).toContain(w);
    }
  });
  it('says a removal waits for the server, and the server’s own word first', () => {
    expect(switchNote({ sharing: false, pending: true, message: '' })).toContain('as soon as it can be reached');
    expect(switchNote({ sharing: false, pending: false, message: '' })).toContain('nothing of your sessions');
    expect(switchNote({ sharing: true, pending: false, message: '' })).toContain('On:');
    expect(switchNote({ sharing: true, pending: false, message: 'The team server cannot be reached: later' })).toBe('The team server cannot be reached: later');
  });
  it('says what answers from the page may do, and that off means nothing is typed', () => {
    expect(answersNote({ sharing: true, answers: false })).toBe('Off: nothing given on the Needs you page is typed on this computer.');
    expect(answersNote({ sharing: true, answers: true })).toContain('only while the prompt still shows');
    expect(answersNote({ sharing: true, answers: true })).toContain('in the audit');
    expect(answersNote({ sharing: false, answers: true })).toContain('not shared');
  });
  it('lists the other devices, those that need you first, never this one', () => {
    expect(otherDevices({ devices: [desk, here, laptop] }).map((d) => d.name)).toEqual(['laptop', 'desk']);
    expect(otherDevices(null)).toEqual([]);
  });
  it('sums a device up and names states as the board does', () => {
    expect(deviceLine(laptop)).toBe('1 needs you · 2 sessions');
    expect(deviceLine(desk)).toBe('1 session');
    expect(stateLabel('needs_you')).toBe('Needs you');
    expect(stateLabel('odd')).toBe('odd');
  });
});

describe('quietNote', () => {
  it('says pushes come at any time without quiet hours', () => {
    expect(quietNote(null)).toBe('No quiet hours: pushes come at any time.');
    expect(quietNote({ on: false, from: '', to: '', time_zone: '' })).toBe('No quiet hours: pushes come at any time.');
  });
  it('gives the hours and the zone as the page does', () => {
    expect(quietNote({ on: true, from: '22:00', to: '07:00', time_zone: 'Europe/Berlin' })).toBe(
      'No pushes from 22:00 to 07:00 (Europe/Berlin); the page still shows what waits. The Needs you page shows and changes the same hours.',
    );
  });
});

describe('browserLine', () => {
  const b = { id: 'b_1', name: 'Safari on iPhone', user_agent: 'x', signed_in: '2026-12-05T01:00:00Z', pushes: 0, signed_out: false };
  const day = () => '12/5/2026';
  it('says when it signed in, and whether pushes reach it', () => {
    expect(browserLine(b, day)).toBe('signed in 12/5/2026');
    expect(browserLine({ ...b, pushes: 2 }, day)).toBe('signed in 12/5/2026 · gets pushes');
  });
  it('says a signed-out browser still gets pushes', () => {
    expect(browserLine({ ...b, signed_out: true, signed_in: undefined, pushes: 1 }, day)).toBe('signed out, still gets pushes');
  });
});
