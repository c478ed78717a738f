// Where a chat was compacted (backend/pipeline/compaction.go): the
// Compaction role's summary replaces the turns before the marker for the
// next runs; the turns themselves stay in the chat.
import type { Compaction, Message } from './api/pipeline';

/** markersAfter maps a message id to the compaction whose marker follows it. */
export function markersAfter(compactions: Compaction[]): Map<number, Compaction> {
  return new Map(compactions.map((c) => [c.uptoMessageId, c]));
}

/** compactable: the chat has turns since its last compaction, so Compact has something to summarise. */
export function compactable(messages: Message[], compactions: Compaction[]): boolean {
  const from = compactions.length ? compactions[compactions.length - 1].uptoMessageId : 0;
  return messages.some((m) => m.id > from && m.role !== 'error');
}

/** compactedLine is the marker's small print: how much, by which model, and why. */
export function compactedLine(c: Compaction): string {
  const turns = c.turns === 1 ? '1 turn' : `${c.turns} turns`;
  const why = c.reason === 'auto' ? ' automatically, as the conversation neared what a run can be sent' : '';
  return `${turns} summarised by ${c.model}${why}`;
}
