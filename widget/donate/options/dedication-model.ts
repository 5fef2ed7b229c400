import { signal } from "@preact/signals-core";
import type { DonationRequest } from "../../../contract/api";
import {
  DEDICATION_NAME_MAX,
  DEDICATION_NAME_REFUSED,
  memoFits,
  type Dedication,
  type DedicationKind,
} from "../../../contract/dedication";
import { codePoints } from "../../../contract/patterns";

export type DedicationProblem = "required" | "invalid" | "tooLong";

/**
 * A gift dedicated to someone (`fields="dedication"`): a box that, ticked, asks "in honor of" or
 * "in memory of", a name, and an optional e-mail to notify. The proxy writes it into the memo
 * (contract/dedication.ts); nothing is sent while the box is unticked.
 *
 * @example
 * const dedication = createDedicationModel();
 * dedication.on.value = true;
 * dedication.name.value = "Jane Doe";
 * dedication.request(); // { dedication: { kind: "honor", name: "Jane Doe" } }
 */
export function createDedicationModel() {
  const on = signal(false);
  const kind = signal<DedicationKind>("honor");
  const name = signal("");
  const email = signal("");

  /** The dedication as sent, or undefined while it is off. */
  function value(): Dedication | undefined {
    if (!on.value) return undefined;
    const notify = email.value.trim();
    return { kind: kind.value, name: name.value.trim(), ...(notify && { notify_email: notify }) };
  }

  return {
    on,
    kind,
    name,
    email,
    /** The dedication the thank-you repeats, or null. */
    value: () => value() ?? null,

    request(): Pick<DonationRequest, "dedication"> {
      return { dedication: value() };
    },

    /**
     * What the donor must fix, in words of its own (the request's check names a bad e-mail): a name,
     * short enough, and with `memo`, the donor's message, within the memo's limit.
     */
    problems(memo: string | undefined): { dedicationName?: DedicationProblem } {
      const dedication = value();
      if (!dedication) return {};
      if (dedication.name === "") return { dedicationName: "required" };
      if (codePoints(dedication.name) > DEDICATION_NAME_MAX || DEDICATION_NAME_REFUSED.test(dedication.name))
        return { dedicationName: "invalid" };
      if (!memoFits(memo, dedication)) return { dedicationName: "tooLong" };
      return {};
    },

    reset() {
      on.value = false;
      name.value = "";
      email.value = "";
    },
  };
}
export type DedicationModel = ReturnType<typeof createDedicationModel>;
