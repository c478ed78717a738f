// Deleting a knowledge base or a Record, in words: what the confirm says
// goes (the articles with a base; teammates' copies for a synced project),
// what a failed delete tells the person to do, and the notice of a delete
// that met an edit (team:kept-after-delete), where the edited copy stayed.
import type { teamclient } from './wailsjs/go/models';
import { errorText } from './place';
import { teamApi } from './api/team';
import { bound } from './wails';

export type KeptAfterDelete = Omit<teamclient.KeptAfterDelete, 'kind'> & { kind: 'kb' | 'article' | 'record' };

/** What the team-projects answer needs to say which projects sync. */
type Synced = { synced: { id: string }[] | null } | null | undefined;

/** syncedIds is the set of this desktop's Synced project ids (none when not joined). */
export function syncedIds(p: Synced): Set<string> {
  return new Set((p?.synced ?? []).map((x) => x.id));
}

const TEAM = ' The project is synced: it is deleted for your teammates too, unless one of them edited it meanwhile (then their edited copy is kept).';

function articles(n: number): string {
  return n === 1 ? '1 article' : `${n} articles`;
}

/** kbDeleteText is what the confirm says deleting a knowledge base removes. */
export function kbDeleteText(name: string, count: number, synced: boolean): string {
  const with_ = count === 0 ? 'It has no articles.' : `Its ${articles(count)} ${count === 1 ? 'goes' : 'go'} with it.`;
  return `“${name}” is deleted from this computer and connected agents no longer find it. ${with_}${synced ? TEAM : ''}`;
}

/** articleDeleteText is what the confirm says deleting an article removes. */
export function articleDeleteText(title: string, base: string, synced: boolean): string {
  return `“${title}” is deleted from ${base} and connected agents no longer find it.${synced ? TEAM : ''}`;
}

/** recordDeleteText is what the confirm says deleting a Record removes. */
export function recordDeleteText(title: string, channel: string, synced: boolean): string {
  return `“${title}” and its body are removed from ${channel}.${synced ? TEAM : ''}`;
}

/** alreadyGone: the delete failed because the item was no longer there. */
export function alreadyGone(e: unknown): boolean {
  return /not found/i.test(errorText(e));
}

/**
 * deleteError says why a delete failed and what to do; nothing was removed
 * unless the item was already gone.
 */
export function deleteError(what: string, e: unknown): string {
  const why = errorText(e);
  if (alreadyGone(e)) return `This ${what} was already deleted elsewhere. The screen now shows what is left.`;
  return `Not deleted: ${why}. Nothing was removed; try again, and if it keeps failing restart the app.`;
}

const NOUN: Record<KeptAfterDelete['kind'], string> = { kb: 'Knowledge base', article: 'Article', record: 'Record' };

/** keptNotice is the notice of a delete that met an edit: the item, kept, and why. */
export function keptNotice(ev: KeptAfterDelete): { title: string; text: string } {
  const noun = NOUN[ev.kind] ?? 'Item';
  const title = `${noun} kept: ${ev.title || ev.id}`;
  const text = ev.why || `“${ev.title || ev.id}” was edited while it was being deleted, so the edited copy was kept rather than lose the edit.`;
  return { title, text };
}

/**
 * SyncedProjects answers which projects sync, asked at each confirm: a
 * project may have moved to Synced since the screen opened. Settings →
 * Team's list asks the server too, so an answer that takes longer than
 * waitMs (offline) gives the last one known.
 */
export class SyncedProjects {
  ids = new Set<string>();

  async get(waitMs = 2000): Promise<Set<string>> {
    if (!bound('teamclient', 'Binding')) return this.ids;
    const ask = teamApi.projects().then(
      (p) => (this.ids = syncedIds(p)),
      () => this.ids,
    );
    return Promise.race([ask, new Promise<Set<string>>((r) => setTimeout(() => r(this.ids), waitMs))]);
  }
}
