import type { ReadonlySignal } from "@preact/signals-core";

/*
 * The donation form's fields, its steps and its problems: what every part of the form shares.
 */

/**
 * The steps of `layout="steps"`, by the fields each asks: the gift, the donor (and the options
 * turned on), the card. A field's problem takes the donor back to its step.
 */
const STEP_FIELDS = [
  ["frequency", "amount", "peer"],
  [
    "fullName",
    "firstName",
    "lastName",
    "email",
    "phone",
    "street",
    "city",
    "state",
    "country",
    "zip",
    "memo",
    "dedicationName",
    "dedicationEmail",
  ],
  ["card"],
] as const;
export type DonateField = (typeof STEP_FIELDS)[number][number];
export const STEPS: readonly (readonly DonateField[])[] = STEP_FIELDS;
export const LAST_STEP = STEPS.length - 1;
/** The step that asks for `field`. */
export const stepOf = (field: DonateField) => STEPS.findIndex((fields) => fields.includes(field));

/** The options, after the card on one page. */
const OPTION_FIELDS: DonateField[] = ["memo", "dedicationName", "dedicationEmail"];
/** The form's fields in the order they appear on one page (the options after the card): the first with an error gets focus. */
export const DONATE_FIELDS: DonateField[] = [
  ...STEPS.flat().filter((field) => !OPTION_FIELDS.includes(field)),
  ...OPTION_FIELDS,
];

/**
 * Why a field was refused; the form puts it into words in the donor's language. `missing`: a
 * field the nonprofit made required (`fields="phone:required"`), left empty.
 */
export type FieldProblem = "required" | "missing" | "invalid" | "range" | "smsPhone" | "tooLong";
export type FieldProblems = Partial<Record<DonateField, FieldProblem>>;

/** A refused attempt, by what the donor can do about it (the key of its words in the catalog). */

/**
 * What each part's component may do to the form (DonationModel does it): read the fields'
 * problems, set a value and forget the problem its field had.
 */
export interface FormEdits {
  errors: ReadonlySignal<FieldProblems>;
  /** Sets one of the form's values; `field` names the problem it may clear. */
  set<T>(target: { value: T }, value: T, field?: DonateField): void;
  /** Forgets a field's problem once the donor changes it. */
  clearError(field: DonateField): void;
}
