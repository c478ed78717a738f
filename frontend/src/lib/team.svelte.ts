// The team server status shared by the header and Settings → Team.
import { on } from './events';
import { teamApi, type TeamStatus } from './api/team';
import { bound } from './wails';

class Team {
  status = $state<TeamStatus | null>(null);

  /** watch reads the status and follows team:status; returns the unsubscribe. */
  watch(): () => void {
    if (!bound('teamclient', 'Binding')) return () => {};
    teamApi.status().then(
      (s) => (this.status = s),
      () => {},
    );
    return on('team:status', (s) => (this.status = s));
  }
}

export const team = new Team();
