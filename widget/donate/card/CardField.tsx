import type { Locale, Messages } from "../../i18n";
import type { DonateTarget } from "../base/attributes";
import type { FieldProblem } from "../base/fields";
import { cardFrameUrl, frameTheme, type CardPort } from "./card-port";
import { describedBy, FieldError, fieldId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";

interface CardFieldProps {
  card: CardPort;
  host: HTMLElement;
  proxyUrl: string;
  locale: Locale;
  t: Messages;
  /** The card's problem, if Donate found one (the frame words its own fields'). */
  problem: FieldProblem | undefined;
  /**
   * The campaign as the page names it: the frame sends its shortcode and keyword with the card,
   * so the proxy counts card-testing signals per campaign (an event's form: counted overall).
   */
  target: DonateTarget;
}

/** The card fields: an iframe served by the proxy, so this page never holds a card number. */
export const CardField = reactive(({ card, host, proxyUrl, locale, t, problem, target }: CardFieldProps) => {
  const error = problem ? t.donateLater.errors.card : null;
  const src = card.frameUrl(() => cardFrameUrl(proxyUrl, locale, { ...frameTheme(host), ...target }));
  const height = card.height.value;
  return (
    <fieldset>
      <legend part="legend">{t.donateLater.cardLegend}</legend>
      <iframe
        ref={card.frameRef}
        id={fieldId("card")}

        part="card-frame"
        title={t.donateLater.cardFrameTitle}
        src={src}
        style={height > 0 ? { height: `${height}px` } : undefined}
        aria-describedby={describedBy("card", error)}
        // The frame is the proxy's page, another origin: allow-same-origin gives it its own origin
        // (for its one request), never this page's. The sandbox still keeps it from navigating us.
        // oxlint-disable-next-line react/iframe-missing-sandbox
        sandbox="allow-scripts allow-same-origin allow-forms"
      />
      {card.failed.value ? (
        <p class="gk-error" role="alert" part="error">
          {t.donateLater.cardFrameFailed}
        </p>
      ) : null}
      <FieldError field="card" error={error} />
    </fieldset>
  );
});
