// The orchestration binding (backend/orchestrate): fleets, loops and graphs
// of pipeline runs a person starts and follows on the Orchestration screen.
import { bound, service, type Narrow } from '../wails';
import type { orchestrate } from '../wailsjs/go/models';

const PKG = 'orchestrate';
const STRUCT = 'OrchestrateBinding';

export type JobKind = 'fleet' | 'loop' | 'graph';

/** Limits of a job; 0 means none of that kind. */
export type Limits = orchestrate.Limits;

/** One run of a fleet: model "" = the role's model from Pipeline Roles, folder "" = the current Local Folder. */
export type TaskSpec = orchestrate.ChildSpec;

/** A fleet; title "" = "Team of N". */
export type FleetRequest = orchestrate.FleetRequest;

/** A loop: one task again and again until the condition (until) or exactly count iterations. */
export type LoopRequest = orchestrate.LoopRequest;

export type GraphStep = orchestrate.DAGStep;

/** A graph; task is the goal every step is given before its own part. */
export type GraphRequest = orchestrate.GraphRequest;

/** One child run of a job, live: a fleet's run, a loop's iteration, a graph's step; id is what cancelChild takes. */
export type Child = Narrow<orchestrate.Step, { id: string }>;

/** A job. */
export type Job = Narrow<orchestrate.Status, { kind: JobKind | 'run'; steps: Child[] }>;

const svc = service(PKG, STRUCT);

export const orchestrateApi = {
  available: () => bound(PKG, STRUCT),
  startFleet: (r: FleetRequest) => svc('StartFleet', r) as Promise<Job>,
  startLoop: (r: LoopRequest) => svc('StartLoop', r) as Promise<Job>,
  startGraph: (r: GraphRequest) => svc('StartGraph', r) as Promise<Job>,
  list: () => svc('List') as Promise<Job[]>,
  get: (id: string) => svc('Get', id) as Promise<Job>,
  cancelChild: (jobId: string, childId: string) => svc('CancelChild', jobId, childId) as Promise<Job>,
  cancelJob: (jobId: string) => svc('CancelJob', jobId) as Promise<Job>,
};
