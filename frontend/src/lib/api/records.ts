// The Records screen's bound service (backend/notes/records_binding.go, notes.RecordsBinding).
import { call } from '../wails';
import type { notes } from '../wailsjs/go/models';

/** A Record channel; statuses in board order, empty: any status is accepted. */
export type RecordChannel = notes.RecordBoard;
/** A Record item; fields are free-form, "body" is its Markdown body. */
export type RecordItem = notes.RecordItem;
export type RecordEdit = notes.RecordEdit;
/** version: the item's new version when saved, its current one on a conflict. */
export type RecordSaveResult = notes.RecordSaveResult;
export type RecordsOverview = notes.RecordsOverview;

/** recordsChanged payload (backend/notes EventRecordsChanged). */
export type RecordsChangedEvent = notes.RecordsChangedEvent;

export const BODY_FIELD = 'body';

export function bodyOf(it: RecordItem): string {
  const b = it.fields?.[BODY_FIELD];
  return typeof b === 'string' ? b : '';
}

const S = 'RecordsBinding';
export const recordsApi = {
  overview: () => call('notes', S, 'Overview'),
  createChannel: (workspace: string, project: string, name: string, statuses: string[]) =>
    call('notes', S, 'CreateChannel', workspace, project, name, statuses),
  items: (channel: string) => call('notes', S, 'Items', channel),
  item: (channel: string, item: string) => call('notes', S, 'Item', channel, item),
  addItem: (channel: string, title: string, status: string, body: string) =>
    call('notes', S, 'AddItem', channel, title, status, body),
  saveItem: (channel: string, item: string, expected: number, edit: RecordEdit) =>
    call('notes', S, 'SaveItem', channel, item, expected, edit),
  /** deleteItem removes an item (a synced project's: for teammates too). */
  deleteItem: (channel: string, item: string) => call('notes', S, 'DeleteItem', channel, item),
};
