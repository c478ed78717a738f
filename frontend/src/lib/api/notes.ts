// The Notes screen's bound service (backend/notes/binding.go, notes.Binding).
import { call } from '../wails';

export type TabKind = 'text' | 'sheet' | 'slides' | 'file' | 'source';
export type Cell = string | number | boolean | null;

export interface Workspace { id: string; name: string }
export interface Project { id: string; workspace_id: string; name: string }

export interface NoteInfo {
  note_id: string;
  workspace_id: string;
  project_id: string;
  title: string;
  version: number;
  updated_at: string;
}

export interface TabInfo {
  tab_id: string;
  kind: TabKind;
  title: string;
  position: number;
  tab_version: number;
  updated_at: string;
}

export interface Sheet { id: string; name: string; cells: Cell[][] }
export interface SheetData { sheets: Sheet[] }
export interface Slide { id: string; title: string; body: string }
export interface SlidesData { slides: Slide[] }
export interface Attachment { name: string; url?: string; mime_type?: string; size: number; text?: string }

export interface Tab extends TabInfo {
  text?: string;
  sheet?: SheetData;
  slides?: SlidesData;
  attachment?: Attachment;
}

export interface Note extends NoteInfo { tabs: Tab[] }

export interface Overview { workspaces: Workspace[]; projects: Project[]; notes: NoteInfo[] }

/** SaveResult: saved, or (saved false) the Note's current version and the tab as it is now. */
export interface SaveResult { saved: boolean; version: number; tab_version: number; current?: Tab }

export interface AddTabResult { result: SaveResult; tab: TabInfo }

/** KeptDraft: an editor draft as the app's database keeps it (data is the editor's JSON). */
export interface KeptDraft { owner_id: string; item_id: string; data: string; saved_at: string }

const c = <T>(method: string, ...args: unknown[]) => call<T>('notes', 'Binding', method, ...args);

export const notesApi = {
  overview: () => c<Overview>('Overview'),
  get: (noteId: string) => c<Note>('GetNote', noteId),
  create: (workspace: string, project: string, title: string) => c<Note>('CreateNote', workspace, project, title),
  createProject: (workspace: string, name: string) => c<Project>('CreateProject', workspace, name),
  saveText: (noteId: string, tabId: string, expectedVersion: number, text: string) =>
    c<SaveResult>('SaveText', noteId, tabId, expectedVersion, text),
  saveSheet: (noteId: string, tabId: string, expectedVersion: number, sheet: SheetData) =>
    c<SaveResult>('SaveSheet', noteId, tabId, expectedVersion, sheet),
  addTab: (noteId: string, expectedVersion: number, kind: TabKind, title: string) =>
    c<AddTabResult>('AddTab', noteId, expectedVersion, kind, title),
  drafts: () => c<KeptDraft[]>('Drafts'),
  saveDraft: (owner: string, item: string, data: string) => c<void>('SaveDraft', owner, item, data),
  discardDraft: (owner: string, item: string) => c<void>('DiscardDraft', owner, item),
};
