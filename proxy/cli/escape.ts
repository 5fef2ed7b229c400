/**
 * What the command line prints of a record is shown, never acted on: a consent text, a user agent
 * or a note may hold any character a visitor sent, and a terminal runs control characters (ESC
 * sequences rewrite the screen, BEL rings, CR overwrites a line). Every C0 and C1 control, DEL,
 * the line and paragraph separators and the bidi controls (which reorder what an operator reads)
 * are written as escapes instead: `\n`, `\r`, `\t`, or `\u001b` and the like.
 */

// oxlint-disable-next-line no-control-regex -- control characters are what it escapes.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const escape = (character: string) =>
  NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** Text for a table cell or a CSV field: every control character as an escape. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, escape);
}

/**
 * One value as a line of JSON with no raw control character: JSON.stringify escapes C0 already;
 * DEL, C1 and the others become `\u` escapes, which every JSON reader reads back as they were.
 */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value).replace(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}
