import { effect, type ReadonlySignal } from "@preact/signals-core";
import { frameTheme, type FrameTheme } from "../../shared/card-frame";
import { tellCardFrame } from "../../shared/tell-card-frame";

/** What is told of a form (its DonationModel's parts, named by shape: the model loads this file later). */
interface Form {
  props: { source?: string };
  step: ReadonlySignal<number>;
  refusals: ReadonlySignal<number>;
  status: ReadonlySignal<{ kind: string; code?: string }>;
  errorFields: ReadonlySignal<readonly string[]>;
}

/**
 * The form's look with what its card frame counts the form's steps by: the page's viewport width
 * (the device class, never the user agent) and the form's channel (the element's `source`, else
 * the page's `utm_source`).
 */
export const countedTheme = (host: Element, form: Form): FrameTheme => ({
  ...frameTheme(host),
  width: innerWidth,
  channel: form.props.source ?? new URLSearchParams(location.search).get("utm_source") ?? undefined,
});

/** The forms whose steps are told already (one teller per form). */
const told = new WeakSet<object>();

/**
 * Tells `host`'s card frame what it counts of the form's steps (widget/frame/form-events.ts) and
 * cannot see: a step passed (the gift's: "amount"; the donor's: "details"), why an attempt was
 * refused (its code, the first field refused). The width and channel go with the look the card
 * port gives the frame as the form takes it over (countedTheme, CardField.tsx). After the form is drawn, never in the donor's way; it comes with the rest of the form,
 * so the first step pays nothing for it.
 */
export function tellSteps(host: Element, form: Form): void {
  if (told.has(form)) return;
  told.add(form);
  const tell = (news: { step?: "amount" | "details"; code?: string; field?: string }) =>
    requestAnimationFrame(() => tellCardFrame(host, { type: "givekit:step", ...news }));
  effect(() => {
    const step = form.step.value;
    if (step) tell({ step: step > 1 ? "details" : "amount" });
  });
  effect(() => {
    if (!form.refusals.value) return;
    const status = form.status.peek();
    tell({
      code: status.kind === "failed" ? status.code : "validation_failed",
      field: form.errorFields.peek()[0],
    });
  });
}
