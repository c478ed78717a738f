import { describe, expect, it } from 'vitest';
import { joined, stateLabel, whereKept } from './team';
import type { TeamStatus } from './api/team';

const base: TeamStatus = { state: 'signed_out', server: '', team: '', person: { id: '', name: '', email: '' }, workspaces: [], tokenStore: '', message: '' };

describe('team status words', () => {
  it('names each state as the header shows it', () => {
    expect(stateLabel({ state: 'connected' })).toBe('Connected');
    expect(stateLabel({ state: 'offline' })).toBe('Offline');
    expect(stateLabel({ state: 'expired' })).toBe('Sign in again');
    expect(stateLabel({ state: 'signed_out' })).toBe('Signed out');
  });
  it('shows the team only once joined', () => {
    expect(joined(null)).toBe(false);
    expect(joined(base)).toBe(false);
    expect(joined({ ...base, server: 'https://team.example.com' })).toBe(true);
  });
  it('says where the sign-in is kept, and why a file', () => {
    expect(whereKept({ tokenStore: 'Secret Service' })).toBe('The sign-in is kept in Secret Service.');
    expect(whereKept({ tokenStore: 'a file only you can read (/d/team-token)' })).toContain('No keychain was found');
    expect(whereKept({ tokenStore: '' })).toBe('');
  });
});
