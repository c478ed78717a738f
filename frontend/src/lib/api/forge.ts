import { service } from '../wails';
import type { forge } from '../wailsjs/go/models';

/** Where a branch's pull request would go, its drafted text and whose login pushes (forge.Plan). */
export type PullRequestPlan = forge.Plan;
/** What opening did: the request's link, state and checks (forge.Opened). */
export type PullRequestOpened = forge.Opened;
/** A request opened from the app, kept for the branch's card (forge.Record). */
export type PullRequestRecord = forge.Record;
/** A self-hosted forge the person named (forge.Host). */
export type ForgeHost = forge.Host;
/** A host with a pasted token, as Settings lists it (forge.PastedToken). */
export type PastedToken = forge.PastedToken;
export type ForgeKind = 'github' | 'gitlab' | 'gitea';

const svc = service('forge', 'Binding');

export const forgeApi = {
  /** plan reads where branch (of the repository or worktree at dir) would be proposed; base '' is the remote's default. */
  plan: (dir: string, branch: string, base: string) => svc('Plan', dir, branch, base),
  /** open pushes the branch and opens its request; on failure nothing is left pushed (the error says so). */
  open: (req: { dir: string; branch: string; base: string; title: string; body: string }) => svc('Open', req),
  /** refresh reads the state and checks of the request opened for branch again. */
  refresh: (dir: string, branch: string) => svc('Refresh', dir, branch),
  /** saveToken keeps a pasted token for host in the OS keychain (a 0600 file in the app's data folder without one; never in a repository). */
  saveToken: (host: string, token: string) => svc('SaveToken', host, token),
  /** forgetToken takes host's pasted token back out of where it is kept. */
  forgetToken: (host: string) => svc('ForgetToken', host),
  /** pastedTokens lists the hosts with a pasted token: forge and where it is kept, never the token. */
  pastedTokens: () => svc('PastedTokens'),
  hosts: () => svc('Hosts'),
  /** addHost names what runs on a self-hosted forge (api '' for the usual place). */
  addHost: (name: string, kind: ForgeKind, api: string) => svc('AddHost', { name, kind, api }),
  setHosts: (hosts: ForgeHost[]) => svc('SetHosts', hosts),
};

/** checksText says a request's checks in a few words. */
export function checksText(c: { state: string; total: number; passed: number; failed: number; pending: number }): string {
  switch (c.state) {
    case 'success':
      return c.total === 1 ? 'check passed' : `${c.total} checks passed`;
    case 'failure':
      return `${c.failed} of ${c.total} checks failed`;
    case 'pending':
      return `${c.pending} of ${c.total} checks running`;
  }
  return 'no checks';
}
