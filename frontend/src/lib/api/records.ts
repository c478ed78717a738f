// The Records screen's bound service (backend/notes/records_binding.go, notes.RecordsBinding).
import { call } from '../wails';
import type { Project, Workspace } from './notes';

export interface RecordChannel {
  record_channel_id: string;
  workspace_id: string;
  project_id: string;
  name: string;
  /** the channel's statuses in board order; empty: any status is accepted */
  statuses: string[];
}

export interface RecordItem {
  item_id: string;
  record_channel_id: string;
  title: string;
  status: string;
  /** free-form fields; "body" is the item's Markdown body */
  fields: Record<string, unknown>;
  version: number;
  updated_at: string;
}

export interface RecordEdit { title: string; status: string; body: string }

export interface RecordSaveResult {
  saved: boolean;
  /** the item's new version when saved, its current one on a conflict */
  version: number;
  current?: RecordItem;
}

export interface RecordsOverview { workspaces: Workspace[]; projects: Project[]; channels: RecordChannel[] }

/** recordsChanged payload (backend/notes EventRecordsChanged). */
export interface RecordsChangedEvent { record_channel_id: string; item_id: string; version: number }

export const BODY_FIELD = 'body';

export function bodyOf(it: RecordItem): string {
  const b = it.fields?.[BODY_FIELD];
  return typeof b === 'string' ? b : '';
}

const S = 'RecordsBinding';
export const recordsApi = {
  overview: () => call<RecordsOverview>('notes', S, 'Overview'),
  createChannel: (workspace: string, project: string, name: string, statuses: string[]) =>
    call<RecordChannel>('notes', S, 'CreateChannel', workspace, project, name, statuses),
  items: (channel: string) => call<RecordItem[]>('notes', S, 'Items', channel),
  item: (channel: string, item: string) => call<RecordItem>('notes', S, 'Item', channel, item),
  addItem: (channel: string, title: string, status: string, body: string) =>
    call<RecordItem>('notes', S, 'AddItem', channel, title, status, body),
  saveItem: (channel: string, item: string, expected: number, edit: RecordEdit) =>
    call<RecordSaveResult>('notes', S, 'SaveItem', channel, item, expected, edit),
};
