// What Settings → Team says about sharing this computer's sessions.
import type { QuietHours, SessionsView, SharedDevice, SharedSessionState, SignedInBrowser } from './api/teamSessions';

/** WHAT_IS_SENT is the one sentence beside the switch: exactly what leaves. */
export const WHAT_IS_SENT =
  "Sends each session on your Sessions board — its kind, title and state, since when, an id for it, and, only while it needs you, the line it asks and how many choices it offers — to your team server, for your other devices and the assistants you connected; terminal text, pane history and External agents never leave this computer.";

/** switchNote says where things stand under the switch. */
export function switchNote(v: Pick<SessionsView, 'sharing' | 'pending' | 'message'>): string {
  if (v.message) return v.message;
  if (v.pending) return 'Off: this computer’s sessions will be removed from the team server as soon as it can be reached.';
  return v.sharing
    ? 'On: your other devices see this computer’s sessions while this app is open and signed in.'
    : 'Off: nothing of your sessions is on the team server.';
}

const stateWords: Record<SharedSessionState, string> = {
  needs_you: 'Needs you',
  running: 'Running',
  paused: 'Paused',
  idle: 'Idle',
  done: 'Done',
  failed: 'Failed',
};

/** stateLabel is a shared session's column, in the board's words. */
export function stateLabel(state: string): string {
  return stateWords[state as SharedSessionState] ?? state;
}

/** otherDevices are the person's sharing desktops except this one, those
 * with a session that needs the person first. */
export function otherDevices(v: Pick<SessionsView, 'devices'> | null): SharedDevice[] {
  const others = (v?.devices ?? []).filter((d) => !d.current);
  const waiting = (d: SharedDevice) => d.sessions.filter((s) => s.state === 'needs_you').length;
  return others.slice().sort((a, b) => waiting(b) - waiting(a));
}

/** deviceLine sums a device up: "2 need you · 5 sessions". */
export function deviceLine(d: SharedDevice): string {
  const n = d.sessions.length;
  const need = d.sessions.filter((s) => s.state === 'needs_you').length;
  const total = n === 1 ? '1 session' : `${n} sessions`;
  return need ? `${need} need${need === 1 ? 's' : ''} you · ${total}` : total;
}

/** answersNote explains "Answer from the team server's page" as it stands. */
export function answersNote(v: Pick<SessionsView, 'sharing' | 'answers'>): string {
  if (!v.sharing) return 'Off while this computer\'s sessions are not shared: the page has nothing of it to answer.';
  return v.answers
    ? 'On: Approve, Decline, a numbered choice or a short reply given on the Needs you page is typed here, only while the prompt still shows; each one is in the audit.'
    : 'Off: nothing given on the Needs you page is typed on this computer.';
}

/** quietNote says what the quiet hours do, in the Needs you page's words. */
export function quietNote(q: QuietHours | null): string {
  if (!q || !q.on) return 'No quiet hours: pushes come at any time.';
  return `No pushes from ${q.from} to ${q.to} (${q.time_zone}); the page still shows what waits. The Needs you page shows and changes the same hours.`;
}

/** browserLine says where a browser stands: "signed in 12/5/2026 · gets pushes". */
export function browserLine(b: SignedInBrowser, date: (iso: string) => string = (iso) => new Date(iso).toLocaleDateString()): string {
  if (b.signed_out) return 'signed out, still gets pushes';
  const since = b.signed_in ? `signed in ${date(b.signed_in)}` : 'signed in';
  return b.pushes ? `${since} · gets pushes` : since;
}
