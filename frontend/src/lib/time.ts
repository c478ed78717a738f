// Times from the Go side are epoch milliseconds (docs/architecture.md,
// "Times"); the few documented exceptions (Notes, Messages, Connected
// agents: the MCP wire format and stored data) still arrive as RFC 3339
// strings. Screens format every time through these helpers, which take
// either, so a type moving to milliseconds changes no screen's words.

/** A time as the Go side sends it: epoch ms, or RFC 3339 for the exceptions. */
export type Time = number | string;

/** ms is t in epoch milliseconds (NaN when it does not parse). */
export function ms(t: Time): number {
  return typeof t === 'number' ? t : Date.parse(t);
}

/** localString is the date and time in the person's locale ("12/4/2026, 5:30:00 PM"). */
export function localString(t: Time, opts?: Intl.DateTimeFormatOptions): string {
  return new Date(ms(t)).toLocaleString(undefined, opts);
}

/** localTime is the time of day in the person's locale. */
export function localTime(t: Time, opts?: Intl.DateTimeFormatOptions): string {
  return new Date(ms(t)).toLocaleTimeString([], opts);
}

/** localDate is the date in the person's locale. */
export function localDate(t: Time): string {
  return new Date(ms(t)).toLocaleDateString();
}

/** today says whether t falls on now's calendar day. */
export function today(t: Time, now: Date = new Date()): boolean {
  return new Date(ms(t)).toDateString() === now.toDateString();
}

/** ago is how long before now t was, in the words Notes and Knowledge bases
 * show ("just now", "3 min ago", "2 h ago", then the date); "" when t does
 * not parse. */
export function ago(t: Time, now = Date.now()): string {
  const s = (now - ms(t)) / 1000;
  if (!Number.isFinite(s)) return '';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return localDate(t);
}
