import { service } from '../wails';
import type { acp, terminal, worktree } from '../wailsjs/go/models';
import { inputSettled } from '../paneInput';

/** A pane (terminal.Info): name is absent until renamed; startedAt is unix ms. */
export type PaneInfo = terminal.Info;
export type CreateRequest = terminal.CreateRequest;
/** An ACP agent the New pane form offers (acp.Agent): its adapter command and how to install it. */
export type ACPAgent = acp.Agent;
/** The ACP agent a new pane runs: one of acpAgents by id, or another adapter's command. */
export type ACPRequest = terminal.ACPRequest;
/** What "On a new branch" in a folder would get (terminal.BranchPlan). */
export type BranchPlan = terminal.BranchPlan;
/** A repository's set-up for new worktrees (worktree.Config). */
export type WorktreeSetup = worktree.Config;
/** What a new view draws (data is base64). */
export type Attachment = terminal.Attachment;

const svc = service('terminal', 'Service');

/** afterInput calls method once the keys already typed into pane id have
 * reached it: a click right after typing (Close, Pause) must not
 * overtake the last keys. */
const afterInput = <T>(id: string, send: () => Promise<T>) => inputSettled(id).then(send);

export const terminalApi = {
  create: (req: CreateRequest) => svc('Create', req),
  list: () => svc('List'),
  /** restoring is how many saved panes are still to come back at this start. */
  restoring: () => svc('Restoring'),
  /** restoreSaved starts the panes of the last session (once; after the first frame). */
  restoreSaved: () => svc('RestoreSaved'),
  close: (id: string) => afterInput(id, () => svc('Close', id)),
  /** rename names a pane ("" gives it back its folder's name). */
  rename: (id: string, name: string) => svc('Rename', id, name),
  pause: (id: string) => afterInput(id, () => svc('Pause', id)),
  resume: (id: string) => afterInput(id, () => svc('Resume', id)),
  /** input sends one chunk in no order with other calls; a view types through PaneInput and type. */
  input: (id: string, data: string) => svc('Input', id, data),
  /** type sends chunk seq (from 1) of what was typed in view; the pane writes a view's chunks in order. */
  type: (id: string, view: string, seq: number, data: string) => svc('Type', id, view, seq, data),
  /** resize tells pane id its size; a view sends it through PaneInput, in order with its typing. */
  resize: (id: string, cols: number, rows: number) => svc('Resize', id, cols, rows),
  /** attach returns what a new view draws; the pane sends output events until detach. */
  attach: (id: string) => svc('Attach', id),
  detach: (id: string) => svc('Detach', id),
  screenText: (id: string) => svc('ScreenText', id),
  defaultShell: () => svc('DefaultShell'),
  /** acpAgents lists the ACP agents the New pane form offers. */
  acpAgents: () => svc('ACPAgents'),
  /** folders lists the folders panes were started in, the last one first. */
  folders: () => svc('Folders'),
  /** branchPlan says where a pane on a new branch in dir goes and what set-up it gets. */
  branchPlan: (dir: string) => svc('BranchPlan', dir),
  /** savePersonalSetup keeps the person's own set-up for dir's repository. */
  savePersonalSetup: (dir: string, setup: WorktreeSetup) => svc('SavePersonalSetup', dir, setup),
};
