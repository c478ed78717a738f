// Settings → Team → "Share this computer's sessions"
// (backend/teamclient/sessions_binding.go).
import { service, type Narrow } from '../wails';
import type { teamclient } from '../wailsjs/go/models';

export type SharedSessionState = 'running' | 'needs_you' | 'paused' | 'idle' | 'done' | 'failed';
export type SharedSession = Narrow<teamclient.SharedSession, { state: SharedSessionState }>;
export type SharedDevice = Narrow<teamclient.SharedDevice, { sessions: SharedSession[] }>;
/** The switch, what is still owed to the server, and the person's sharing desktops. */
export type SessionsView = Narrow<teamclient.SessionsView, { devices: SharedDevice[] }>;
/** The person's quiet hours, kept on the team server (the Needs you page shows the same). */
export type QuietHours = teamclient.QuietHours;
/** A browser or phone signed in to the team server as the person (it may see and answer). */
export type SignedInBrowser = teamclient.SignedInBrowser;

const sessions = service('teamclient', 'SessionsBinding');

export const teamSessionsApi = {
  view: () => sessions('View') as Promise<SessionsView>,
  /** setSharing: off removes this computer's sessions from the server now, or once it is back. */
  setSharing: (on: boolean) => sessions('SetSharing', on) as Promise<SessionsView>,
  /** setAnswers: "Answer from the team server's page"; off, nothing the page sends is typed here. */
  setAnswers: (on: boolean) => sessions('SetAnswers', on) as Promise<SessionsView>,
  /** quiet: no push from `from` to `to` in `time_zone`; `on` false when none are set. */
  quiet: () => sessions('Quiet') as Promise<QuietHours>,
  setQuiet: (from: string, to: string, timeZone: string) => sessions('SetQuiet', from, to, timeZone) as Promise<QuietHours>,
  clearQuiet: () => sessions('ClearQuiet') as Promise<QuietHours>,
  /** browsers: the ones that may see and answer from the Needs you page. */
  browsers: () => sessions('Browsers') as Promise<SignedInBrowser[]>,
  /** revokeBrowser signs one out at once; the list as it is then. */
  revokeBrowser: (id: string) => sessions('RevokeBrowser', id) as Promise<SignedInBrowser[]>,
};
