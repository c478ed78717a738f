// Settings → Team: join an osFoundry team server, sign in through the system
// browser, sign out (backend/teamclient/binding.go).
import { service, type Narrow } from '../wails';
import type { teamclient } from '../wailsjs/go/models';

export type TeamState = 'connected' | 'offline' | 'signed_out' | 'expired';

/** The app's standing with its team server; server is '' until joined. */
export type TeamStatus = Narrow<teamclient.Status, { state: TeamState; workspaces: teamclient.Workspace[] }>;

const team = service('teamclient', 'Binding');

export const teamApi = {
  status: () => team('Status') as Promise<TeamStatus>,
  /** join opens the system browser and resolves once it came back (or failed). */
  join: (server: string) => team('Join', server) as Promise<TeamStatus>,
  cancelJoin: () => team('CancelJoin'),
  signOut: () => team('SignOut') as Promise<TeamStatus>,
  /** projects: this desktop's Synced and Local-only projects, and the team's not synced here. */
  projects: () => team('Projects') as Promise<TeamProjects>,
  /** teamPlaces: the team workspace's name of each Synced project here, by project id. */
  teamPlaces: () => team('TeamPlaces') as Promise<Record<string, string> | null>,
  previewShare: (project: string) => team('PreviewShare', project) as Promise<string[] | null>,
  shareProject: (workspace: string, project: string) => team('ShareProject', workspace, project),
  joinProject: (workspace: string, project: string) => team('JoinProject', workspace, project),
  stopSync: (project: string, discard: boolean) => team('StopSync', project, discard),
  /** cancelShare drops a move to Synced still waiting for the server. */
  cancelShare: (project: string) => team('CancelShare', project),
  /** runForTeam: whether this computer runs work teammates and assistants ask for (off by default). */
  runForTeam: () => team('RunForTeam') as Promise<boolean>,
  setRunForTeam: (on: boolean) => team('SetRunForTeam', on) as Promise<boolean>,
};

/** One project on Settings → Team; workspace is the team's ('' when Local-only). */
export type ProjectState = Narrow<teamclient.ProjectState, { problems: string[] }>;
export type TeamProjects = Narrow<teamclient.Projects, { synced: ProjectState[]; localOnly: ProjectState[]; waiting: ProjectState[]; shared: ProjectState[] }>;
