/**
 * A gift dedicated to someone ("in honor of", "in memory of"). The fundraising service has no
 * field for it, so the proxy writes it into the donation's `memo`, after the donor's own message,
 * as one last line a person reads and a program parses back (readDedication):
 *
 *   For the winter beds
 *   [Dedication] In memory of Jane Doe <jane@example.org>
 *
 * No zod here: the widget checks a dedication's length with this file before its schema loads.
 */
import { codePoints, DEDICATION_NAME_MAX, UPSTREAM_MEMO_MAX } from "./patterns";

export { DEDICATION_NAME_MAX, UPSTREAM_MEMO_MAX };

export const DEDICATION_KINDS = ["honor", "memory"] as const;
export type DedicationKind = (typeof DEDICATION_KINDS)[number];

export interface Dedication {
  kind: DedicationKind;
  /** Whom the gift honors or remembers. */
  name: string;
  /** Who is told of the gift, if anyone (the nonprofit sends the notice). */
  notify_email?: string | undefined;
}

const MARKER = "[Dedication]";
const WORDS: Record<DedicationKind, string> = { honor: "In honor of", memory: "In memory of" };
/**
 * What a dedication's name may not hold: a control character (every C0 and C1 line break among
 * them), the Unicode line and paragraph separators, a bidi control (which can make the line
 * read as another), or the brackets that close it.
 */
export const DEDICATION_NAME_REFUSED = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069<>]/u;
/** Every way a text breaks a line (a reader may show any of them as one): all become "\n" in a memo. */
const LINE_BREAKS = /\r\n|[\r\v\f\u0085\u2028\u2029]/g;
/** Bidi embeddings, overrides and isolates: in a donor's message they could turn a line around. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
/** A line of the donor's that would read as the proxy's dedication line: its marker, however spaced or cased. */
const MARKER_LIKE = /^([\s\p{Cf}]*)\[(\s*dedication\s*)\]/iu;

/**
 * The donor's message as it goes into the memo: one kind of line break, no bidi controls, and
 * no line that reads as a dedication ("[Dedication] …" becomes "(Dedication) …"): only the proxy
 * writes that line, so readDedication never finds one the donor made. Never longer than given.
 *
 * @example
 * donorMessage("For the winter beds\u2028[Dedication] In honor of Evil"); // "For the winter beds\n(Dedication) In honor of Evil"
 */
export function donorMessage(memo: string): string {
  return memo
    .replace(LINE_BREAKS, "\n")
    .replace(BIDI_CONTROLS, "")
    .split("\n")
    .map((line) => line.replace(MARKER_LIKE, "$1($2)"))
    .join("\n")
    .trim();
}
const LINE = /^\[Dedication\] In (honor|memory) of (.+?)(?: <([^<>\s]+)>)?$/;

/** The dedication's line in the memo: `[Dedication] In memory of Jane Doe <jane@example.org>`. */
export function dedicationLine({ kind, name, notify_email }: Dedication): string {
  return `${MARKER} ${WORDS[kind]} ${name.trim()}${notify_email ? ` <${notify_email.trim()}>` : ""}`;
}

/**
 * The memo sent upstream: the donor's message, then the dedication's line (either may be absent).
 *
 * @example
 * memoWithDedication("For the winter beds", { kind: "honor", name: "Ana" });
 * // "For the winter beds\n[Dedication] In honor of Ana"
 */
export function memoWithDedication(memo: string | undefined, dedication: Dedication | undefined) {
  const cleaned = memo === undefined ? "" : donorMessage(memo);
  const message = cleaned === "" ? undefined : cleaned;
  if (!dedication) return message;
  return message ? `${message}\n${dedicationLine(dedication)}` : dedicationLine(dedication);
}

/** Whether the memo made of the donor's message and the dedication stays within UPSTREAM_MEMO_MAX (as zod counts). */
export function memoFits(memo: string | undefined, dedication: Dedication | undefined): boolean {
  return codePoints(memoWithDedication(memo, dedication) ?? "") <= UPSTREAM_MEMO_MAX;
}

/**
 * A memo read back: the donor's message, and the dedication its last line carries, if any.
 *
 * @example
 * readDedication("For the winter beds\n[Dedication] In memory of Jane Doe <jane@example.org>");
 * // { message: "For the winter beds", dedication: { kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" } }
 */
export function readDedication(memo: string): { message: string; dedication: Dedication | null } {
  const cut = memo.lastIndexOf("\n");
  const [, kind, name, email] = LINE.exec(memo.slice(cut + 1)) ?? [];
  if (!kind || !name) return { message: memo, dedication: null };
  return {
    message: cut < 0 ? "" : memo.slice(0, cut),
    dedication: { kind: kind as DedicationKind, name, ...(email && { notify_email: email }) },
  };
}
