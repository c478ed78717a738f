// The models each agent CLI accepts (backend/agentcli/climodels.go), for
// every model picker: New pane, Pipeline Roles, agents, fleets, the chat.
import { service } from '../wails';
import type { agentcli } from '../wailsjs/go/models';

export type CLIModel = agentcli.CLIModel;
export type CLIModels = agentcli.CLIModels;

const svc = service('agentcli', 'ModelsBinding');

export const modelsApi = {
  /** cliModels lists what `claude --model` / `codex -m` take, "Default (the CLI's own)" first. */
  cliModels: (agent: string) => svc('CLIModels', agent),
};
