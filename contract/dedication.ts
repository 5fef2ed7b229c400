/**
 * A gift dedicated to someone ("in honor of", "in memory of"). The fundraising service has no
 * field for it, so the proxy writes it into the donation's `memo`, after the donor's own message,
 * as one last line a person reads and a program parses back (readDedication):
 *
 *   For the winter beds
 *   Donor wrote: In honor of Evil        (the donor's own "［Dedication］ In honor of Evil")
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
/** What a reader never sees: format characters (zero-width space, soft hyphen, …), other default-ignorables, controls. */
const UNSEEN = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}\p{M}]/u;
/**
 * Letters of other scripts (and digits) a person reads as the marker's, in lower case: NFKC leaves
 * them apart ("[Dеdication]" with a Cyrillic е reads as the marker to anyone but a program).
 */
const LOOK_ALIKES: Record<string, string> = Object.fromEntries(
  [
    ["a", "аɑαᴀꭺꓮ"],
    ["c", "сϲᴄꮯꓚ"],
    ["d", "ԁᴅꭰꓓ"],
    ["e", "еεҽᴇꭼꓰ"],
    ["i", "іιıɩɪӏꭵꓲl1|"],
    ["n", "ոνɴꓠ"],
    ["o", "оοᴏօꓳ0"],
    ["t", "тτᴛꭲꓔ"],
  ].flatMap(([latin, others]) => [...others!].map((other) => [other, latin!])),
);
/** The marker as a reader takes it, in a line read by asRead: "dedication" between any brackets, however spaced. */
const READS_AS_MARKER = /[\p{Ps}\p{Pi}<]\s*dedication\s*[\p{Pe}\p{Pf}>]/gu;
/** What a donor's line says where it held the marker: no word a person takes for a dedication, and as long as the marker. */
const DEFUSED = "Donor wrote:";

/**
 * A line as the upstream, an export or a person reads it, each of its code points mapped to what
 * it shows (`at`: the index of the code point it came from): NFKC (fullwidth and styled letters,
 * "［" and the like become plain), nothing unseen, lower case, no accents, look-alike letters as Latin.
 */
function asRead(codes: readonly string[]): { text: string; at: number[] } {
  let text = "";
  const at: number[] = [];
  codes.forEach((code, index) => {
    for (const shown of code.normalize("NFKC").toLowerCase().normalize("NFD")) {
      if (UNSEEN.test(shown)) continue;
      text += LOOK_ALIKES[shown] ?? shown;
      at.push(index);
    }
  });
  return { text, at };
}

/**
 * A line of the donor's with every span a reader takes for the marker written as DEFUSED, in one
 * pass (DEFUSED holds no bracket and no "dedication", so no new marker is made of the pieces).
 * Never longer: such a span has 12 code points at least.
 */
function defuse(line: string): string {
  const codes = [...line];
  const read = asRead(codes);
  const spans = [...read.text.matchAll(READS_AS_MARKER)].map((found) => ({
    first: read.at[codePoints(read.text.slice(0, found.index))]!,
    last: read.at[codePoints(read.text.slice(0, found.index + found[0].length)) - 1]!,
  }));
  // From the last span back, so the indexes of those before it hold.
  for (let index = spans.length - 1; index >= 0; index--) {
    const { first, last } = spans[index]!;
    codes.splice(first, last - first + 1, DEFUSED);
  }
  return codes.join("");
}

/**
 * The donor's message as it goes into the memo: one kind of line break, no bidi controls, and
 * no line that reads as a dedication: wherever a line holds what a reader takes for the marker
 * (read as asRead reads: "［Dedication］", "[Dedi\u00ADcation]", "(dedication)", a Cyrillic е…),
 * it says "Donor wrote:" instead. Only the proxy writes the marker, so readDedication, an export
 * or a person never finds one the donor made. Never longer than given.
 *
 * @example
 * donorMessage("For the winter beds\u2028［Dedication］ In honor of Evil"); // "For the winter beds\nDonor wrote: In honor of Evil"
 */
export function donorMessage(memo: string): string {
  return memo.replace(LINE_BREAKS, "\n").replace(BIDI_CONTROLS, "").split("\n").map(defuse).join("\n").trim();
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
