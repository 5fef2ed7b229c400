import { VENUE_HOURS } from "../../contract/dashboard";
import { reactive } from "../shared/reactive";
import type { DashboardModel } from "./dashboard-model";
import type { Formats } from "./format";
import type { PanelWords } from "./i18n";

const HOURS = Array.from({ length: VENUE_HOURS.max - VENUE_HOURS.min + 1 }, (_, i) => VENUE_HOURS.min + i);

/**
 * The venue button in the defence panel: this network's state, let it through for some hours (a
 * question to confirm when the defence has seen declined cards from it), or end that now. Its own
 * signals keep a choice or a question waiting for its confirmation across the live figures.
 */
export const Venue = reactive(({ model, t, f }: { model: DashboardModel; t: PanelWords; f: Formats }) => {
  const venue = model.venue.value;
  if (!venue) return null;
  const note = model.venueNote.value;
  const busy = model.venueBusy.value;
  const state =
    note?.kind === "failed"
      ? `${t.venueFailed}${note.detail}`
      : venue.allowed
        ? t.venueAllowed(f.clock(venue.allowed.until), venue.allowed.by)
        : venue.heldUntil
          ? t.venueHeld(f.clock(venue.heldUntil), venue.cardsHeld)
          : t.venueOthers(venue.clientsHeld, venue.cardsHeldElsewhere);
  return (
    <div class="venue">
      <h3>{t.venue}</h3>
      <p class="venue-state">{state}</p>
      <div class="control" hidden={venue.allowed !== null}>
        <label for="venue-hours">{t.venueFor}</label>
        <select
          id="venue-hours"
          value={String(model.venueHours.value)}
          onChange={(event) => (model.venueHours.value = Number(event.currentTarget.value))}
        >
          {HOURS.map((hours) => (
            <option key={hours} value={String(hours)}>
              {t.venueHours(hours)}
            </option>
          ))}
        </select>
        <button type="button" disabled={busy} onClick={() => void model.allowVenue()}>
          {t.venueAllow}
        </button>
      </div>
      <button
        type="button"
        disabled={busy}
        hidden={venue.allowed === null}
        onClick={() => void model.endVenue()}
      >
        {t.venueEnd}
      </button>
      <div class="venue-ask" hidden={note?.kind !== "question"}>
        <p class="venue-question" role="alert">
          {note?.kind === "question" ? note.text : ""}
        </p>
        <button type="button" disabled={busy} onClick={() => void model.allowVenue(true)}>
          {t.venueConfirm}
        </button>
      </div>
    </div>
  );
});
