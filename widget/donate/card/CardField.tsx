import type { Locale, Messages } from "../../i18n";
import type { DonateTarget } from "../base/attributes";
import type { FieldProblem } from "../base/fields";
import type { CardPort } from "./card-port";
import { CARD_FRAME_SLOT, cardFrameIn } from "../../shared/card-frame";
import { cardFrameOf, cardFrameUrl } from "../../shared/open-card-frame";
import { FieldError } from "../../shared/Field";
import { reactive } from "../../shared/reactive";
import { tellCardFrame } from "../../shared/tell-card-frame";
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

/** The language each card frame was last told, where it is not the one its address opened it in. */
const frameLocales = new WeakMap<HTMLIFrameElement, string>();

/**
 * Tells `host`'s card frame the form's language when it speaks another: the donor switched, or
 * the page set the element's `locale` by script. The frame redraws its words (and a challenge on
 * screen) in place, the card typed kept.
 */
function tellLocale(host: HTMLElement, locale: Locale) {
  const frame = cardFrameIn(host);
  if (!frame) return;
  const speaks = frameLocales.get(frame) ?? new URL(frame.src, location.href).searchParams.get("locale");
  if (speaks === locale) return;
  frameLocales.set(frame, locale);
  tellCardFrame(host, { type: "givekit:locale", locale });
}

/**
 * The card fields: an iframe served by the proxy, so this page never holds a card number. The
 * iframe is the element's own child (widget/shared/card-frame.ts), shown here through a slot.
 */
export const CardField = reactive(
  ({ card, form, host, proxyUrl, locale, t, problem, target }: CardFieldProps) => {
    tellSteps(host, form);
    tellLocale(host, locale);
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
