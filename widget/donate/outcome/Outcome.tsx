import type { Dedication } from "../../../contract/dedication";
import type { Locale, Messages } from "../../i18n";
import { formatMoney } from "../../shared/format";
import { focusOnMount } from "../../shared/reactive";
import type { DonateStatus } from "../base/status";

interface OutcomeProps {
  status: Extract<DonateStatus, { kind: "success" | "pending" }>;
  currency: string;
  locale: Locale;
  t: Messages;
  /** The gift's dedication, repeated in the thanks. */
  dedication: Dedication | null;
  onAgain: () => void;
}

/** The end of a donation: thanks with the details, or an honest "we do not know yet". */
export function Outcome({ status, currency, locale, t, dedication, onAgain }: OutcomeProps) {
  const o = t.donateLater.outcome;
  const success = status.kind === "success";
  const amount = formatMoney(status.totalCents, currency, locale);
  return (
    <section
      class={success ? "gk-outcome gk-success" : "gk-outcome"}
      part="outcome"
      role={success ? undefined : "alert"}
      aria-live={success ? "polite" : undefined}
    >
      {/* The form the donor was in is gone; focus the news so it is read out at once. */}
      <h3 ref={focusOnMount} tabIndex={-1}>
        {success ? o.successTitle : o.pendingTitle}
      </h3>
      <p>{success ? o.success(amount, t.donate.per[status.frequency]) : o.pending}</p>
      {success && dedication ? <p>{o.dedicated[dedication.kind](dedication.name)}</p> : null}
      <p>
        {success ? o.transaction : o.reference}:{" "}
        <strong class="gk-reference">{success ? status.transactionId : status.reference}</strong>
      </p>
      {success ? null : <p class="gk-muted">{o[status.check]}</p>}
      {/* Pending offers no second try: the donation may have gone through. */}
      {success ? (
        <button type="button" part="button" onClick={onAgain}>
          {o.again}
        </button>
      ) : null}
    </section>
  );
}
