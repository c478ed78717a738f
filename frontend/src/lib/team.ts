// What the header and Settings → Team say about the team server.
import type { TeamStatus } from './api/team';

/** stateLabel is the words for a state, as the header shows them. */
export function stateLabel(s: Pick<TeamStatus, 'state'>): string {
  switch (s.state) {
    case 'connected':
      return 'Connected';
    case 'offline':
      return 'Offline';
    case 'expired':
      return 'Sign in again';
    default:
      return 'Signed out';
  }
}

/** joined: the header shows the team only once the app joined one. */
export function joined(s: TeamStatus | null): s is TeamStatus {
  return !!s && s.server !== '';
}

/** whereKept says where the sign-in lives, for the screen. */
export function whereKept(s: Pick<TeamStatus, 'tokenStore'>): string {
  if (!s.tokenStore) return '';
  if (s.tokenStore.startsWith('a file')) {
    return `No keychain was found on this computer, so the sign-in is kept in ${s.tokenStore}.`;
  }
  return `The sign-in is kept in ${s.tokenStore}.`;
}
