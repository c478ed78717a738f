// The Notes screen's bound service (backend/notes/binding.go, notes.Binding).
import { service, type Narrow } from '../wails';
import type { notes } from '../wailsjs/go/models';

export type TabKind = 'text' | 'sheet' | 'slides' | 'file' | 'source';
export type Cell = string | number | boolean | null;

export type Workspace = notes.Workspace;
export type Project = notes.Project;
export type NoteInfo = notes.NoteInfo;
export type TabInfo = Narrow<notes.TabInfo, { kind: TabKind }>;
export type Sheet = Narrow<notes.Sheet, { cells: Cell[][] }>;
export type SheetData = Narrow<notes.SheetData, { sheets: Sheet[] }>;
export type Slide = notes.Slide;
export type SlidesData = notes.SlidesData;
export type Attachment = notes.Attachment;
export type Tab = Narrow<notes.Tab, { kind: TabKind; sheet?: SheetData }>;
export type Note = Narrow<notes.Note, { tabs: Tab[] }>;
export type Overview = notes.Overview;
/** SaveResult: saved, or (saved false) the Note's current version and the tab as it is now. */
export type SaveResult = Narrow<notes.SaveResult, { current?: Tab }>;
export type AddTabResult = Narrow<notes.AddTabResult, { result: SaveResult; tab: TabInfo }>;
/** KeptDraft: an editor draft as the app's database keeps it (data is the editor's JSON). */
export type KeptDraft = notes.Draft;

const c = service('notes', 'Binding');

export const notesApi = {
  overview: () => c('Overview'),
  get: (noteId: string) => c('GetNote', noteId) as Promise<Note>,
  create: (workspace: string, project: string, title: string) => c('CreateNote', workspace, project, title) as Promise<Note>,
  createProject: (workspace: string, name: string) => c('CreateProject', workspace, name),
  saveText: (noteId: string, tabId: string, expectedVersion: number, text: string) =>
    c('SaveText', noteId, tabId, expectedVersion, text) as Promise<SaveResult>,
  saveSheet: (noteId: string, tabId: string, expectedVersion: number, sheet: SheetData) =>
    c('SaveSheet', noteId, tabId, expectedVersion, sheet) as Promise<SaveResult>,
  addTab: (noteId: string, expectedVersion: number, kind: TabKind, title: string) =>
    c('AddTab', noteId, expectedVersion, kind, title) as Promise<AddTabResult>,
  drafts: () => c('Drafts'),
  saveDraft: (owner: string, item: string, data: string) => c('SaveDraft', owner, item, data),
  discardDraft: (owner: string, item: string) => c('DiscardDraft', owner, item),
};
