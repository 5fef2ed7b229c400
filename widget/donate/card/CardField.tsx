import type { Locale, Messages } from "../../i18n";
import type { DonateTarget } from "../base/attributes";
import type { FieldProblem } from "../base/fields";
import type { CardPort } from "./card-port";
import { CARD_FRAME_SLOT } from "../../shared/card-frame";
import { cardFrameOf, cardFrameUrl } from "../../shared/open-card-frame";
import { FieldError } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import { countedTheme, tellSteps } from "./step-news";

interface CardFieldProps {
  card: CardPort;
  /** The form, whose steps its card frame counts (step-news.ts). */
  form: Parameters<typeof tellSteps>[1];
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

/**
 * The card fields: an iframe served by the proxy, so this page never holds a card number. The
 * iframe is the element's own child (widget/shared/card-frame.ts), shown here through a slot.
 */
export const CardField = reactive(
  ({ card, form, host, proxyUrl, locale, t, problem, target }: CardFieldProps) => {
    tellSteps(host, form);
    const error = problem ? t.donateLater.errors.card : null;
    const src = card.frameUrl(() => cardFrameUrl(proxyUrl, locale, target));
    card.describe(t.donateLater.cardFrameTitle, error);
    return (
      <fieldset>
        <legend part="legend">{t.donateLater.cardLegend}</legend>
        <slot
          name={CARD_FRAME_SLOT}
          ref={card.frameSlot(() => ({ frame: cardFrameOf(host, src), theme: countedTheme(host, form) }))}
        />
        {card.failed.value ? (
          <p class="gk-error" role="alert" part="error">
            {t.donateLater.cardFrameFailed}
          </p>
        ) : null}
        <FieldError field="card" error={error} />
      </fieldset>
    );
  },
);
