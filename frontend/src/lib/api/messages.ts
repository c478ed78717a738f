// The Messages screen's bound service (backend/messages/binding.go, messages.Binding).
import { call } from '../wails';

export interface Channel {
  id: string;
  workspace: string;
  /** "" for a channel outside every project */
  project: string;
  name: string;
  /** the project's discussion channel (one per project) */
  discussion: boolean;
  private: boolean;
  owner: string;
  createdAt: string;
  workspaceName: string;
  projectName: string;
}

export interface Message {
  id: string;
  seq: number;
  channel_id: string;
  author_kind: 'person' | 'assistant';
  /** the person's id or the caller, e.g. "connect:<connection id>" */
  author: string;
  /** the person's or the connection's name when it posted */
  author_name: string;
  text: string;
  reply_to?: string;
  created_at: string;
}

export interface Place { id: string; name: string; /** a project's workspace; "" for a workspace */ workspace: string }

/** messages:posted payload (backend/messages EventPosted). */
export interface PostedEvent { channel: Channel; message: Message }

/** The longest post (backend/messages MaxTextChars). */
export const MAX_TEXT_CHARS = 4000;

const S = 'Binding';
export const messagesApi = {
  channels: () => call<Channel[]>('messages', S, 'Channels'),
  messages: (channel: string) => call<Message[]>('messages', S, 'Messages', channel),
  post: (channel: string, text: string, replyTo = '') => call<Message>('messages', S, 'Post', channel, text, replyTo),
  createChannel: (workspace: string, project: string, name: string, priv: boolean) =>
    call<Channel>('messages', S, 'CreateChannel', workspace, project, name, priv),
  places: () => call<Place[]>('messages', S, 'Places'),
};
