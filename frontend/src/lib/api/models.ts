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

const chats = service('chat', 'Binding');

export const chatModelApi = {
  /** get is the model picked for a chat ("" = its role's or agent's). */
  get: (chatId: string) => chats('ChatModel', chatId),
  /** set has the chat's next runs ask their CLI for model ("" gives it back to the role or agent). */
  set: (chatId: string, model: string) => chats('SetChatModel', chatId, model),
};
