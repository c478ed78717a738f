// The orchestration binding (backend/orchestrate): fleets, loops and graphs
// of pipeline runs a person starts and follows on the Orchestration screen.
import { bound, call } from '../wails';

const PKG = 'orchestrate';
const STRUCT = 'OrchestrateBinding';

export type JobKind = 'fleet' | 'loop' | 'graph';

/** Limits of a job (orchestrate.Limits); 0 means none of that kind. */
export interface Limits {
  maxSeconds: number;
  maxSpendUSD: number;
  concurrency: number;
}

/** One run of a fleet (orchestrate.ChildSpec). model "" = the role's model from Pipeline Roles. */
export interface TaskSpec {
  role: string;
  model: string;
  prompt: string;
  /** A Local Folder's path; "" = the current one. */
  folder?: string;
}

export interface FleetRequest {
  /** "" = "Team of N". */
  title?: string;
  tasks: TaskSpec[];
  limits: Limits;
}

/** A loop: one task again and again until the condition or the count. */
export interface LoopRequest {
  title?: string;
  role: string;
  model: string;
  prompt: string;
  folder?: string;
  /** The stop condition in words ("" = none: then count is needed). */
  until: string;
  /** Run exactly this many iterations (0 = until the condition). */
  count: number;
  maxIterations: number;
  limits: Limits;
}

export interface GraphStep {
  id: string;
  role: string;
  model: string;
  prompt: string;
  folder?: string;
  dependsOn: string[];
}

export interface GraphRequest {
  title?: string;
  /** The goal every step is given before its own part. */
  task: string;
  steps: GraphStep[];
  limits: Limits;
}

/** One child run of a job, live (orchestrate.Step): a fleet's run, a loop's iteration, a graph's step. */
export interface Child {
  stage: number;
  role: string;
  /** The child's id within its job: what cancelChild takes. */
  id: string;
  model?: string;
  task?: string;
  dependsOn?: string[];
  runId?: string;
  state: string;
  /** The run's newest progress line while it goes. */
  progress?: string;
  costUsd?: number;
  answer?: string;
  error?: string;
  startedAt?: number;
  endedAt?: number;
}

/** A job (orchestrate.Status). */
export interface Job {
  id: string;
  kind: JobKind | 'run';
  state: string;
  steps: Child[];
  answer?: string;
  error?: string;
  note?: string;
  title?: string;
  limits: Limits;
  costUsd: number;
  startedAt?: number;
  endedAt?: number;
}

const svc = <T>(method: string, ...args: unknown[]) => call<T>(PKG, STRUCT, method, ...args);

export const orchestrateApi = {
  available: () => bound(PKG, STRUCT),
  startFleet: (r: FleetRequest) => svc<Job>('StartFleet', r),
  startLoop: (r: LoopRequest) => svc<Job>('StartLoop', r),
  startGraph: (r: GraphRequest) => svc<Job>('StartGraph', r),
  list: () => svc<Job[]>('List'),
  get: (id: string) => svc<Job>('Get', id),
  cancelChild: (jobId: string, childId: string) => svc<Job>('CancelChild', jobId, childId),
  cancelJob: (jobId: string) => svc<Job>('CancelJob', jobId),
};
