// The Messages screen's bound service (backend/messages/binding.go, messages.Binding).
import { call, type Narrow } from '../wails';
import type { messages } from '../wailsjs/go/models';

/** A channel with its workspace's and project's names; project is "" outside every project. */
export type Channel = messages.ChannelView;
/** A post; author is the person's id or the caller ("connect:<connection id>"), author_name its name when it posted. */
export type Message = Narrow<messages.Message, { author_kind: 'person' | 'assistant' }>;
/** A place a channel can be made in; workspace is a project's workspace, "" for a workspace. */
export type Place = messages.Place;

/** An agent added to a channel: it answers posts that mention @name (backend/messages ChannelAgent). */
export type ChannelAgent = Narrow<messages.ChannelAgent, { cli: 'claude' | 'codex' }>;

/** messages:posted payload (backend/messages EventPosted). */
export type PostedEvent = Narrow<messages.PostedEvent, { message: Message }>;

/** The longest post (backend/messages MaxTextChars). */
export const MAX_TEXT_CHARS = 4000;

const S = 'Binding';
export const messagesApi = {
  channels: () => call('messages', S, 'Channels'),
  messages: (channel: string) => call('messages', S, 'Messages', channel) as Promise<Message[]>,
  post: (channel: string, text: string, replyTo = '') => call('messages', S, 'Post', channel, text, replyTo) as Promise<Message>,
  createChannel: (workspace: string, project: string, name: string, priv: boolean) =>
    call('messages', S, 'CreateChannel', workspace, project, name, priv),
  places: () => call('messages', S, 'Places'),
  channelAgents: (channel: string) => call('messages', S, 'ChannelAgents', channel) as Promise<ChannelAgent[]>,
  addAgent: (channel: string, name: string, cli: 'claude' | 'codex', role: string) =>
    call('messages', S, 'AddAgent', channel, name, cli, role) as Promise<ChannelAgent>,
  removeAgent: (channel: string, id: string) => call('messages', S, 'RemoveAgent', channel, id),
};

/** The run that wrote an agent's post ("bridge:<run id>"), or "". */
export const postRun = (author: string) => (author.startsWith('bridge:') ? author.slice('bridge:'.length) : '');
