import type { CampaignResponse, Peer } from "../../../contract/api";
import { toCents } from "../../../contract/money";
import type { Locale, Messages } from "../../i18n";
import { formatMoney } from "../../shared/format";
import type { ReadonlySignal } from "@preact/signals-core";
import type { FormEdits } from "../base/fields";
import type { PeerModel } from "./peers";
import { describedBy, FieldError, fieldId, hintId } from "../../shared/Field";
import { reactive } from "../../shared/reactive";

const LIST_ID = "gk-peer-list";
const CHOSEN_ID = "gk-peer-chosen";
const optionId = (index: number) => `gk-peer-option-${index}`;

/** "Dev Patel · Team Night Owls", "Night Owls · Team"; names that say "team" are shown as they are. */
function peerLabel({ kind, name, team_name: team }: Peer, t: Messages): string {
  const d = t.donate;
  const named = (text: string) => d.peerTeamWord.test(text);
  if (kind === "team") return named(name) ? name : `${name} · ${d.peerTeam}`;
  return team ? `${name} · ${named(team) ? team : `${d.peerTeam} ${team}`}` : name;
}

/** What the fundraiser's picker needs of the form (DonationModel gives it). */
export interface PeerForm extends FormEdits {
  peers: PeerModel;
  campaign: ReadonlySignal<CampaignResponse | null>;
  /** Credits the gift to a fundraiser or team (or no one), and forgets the picker's problem. */
  choosePeer(choice: Parameters<PeerModel["pick"]>[0]): void;
}

/**
 * The fundraiser and team picker: an ARIA 1.2 combobox (an input that owns a listbox, as in
 * the APG's list autocomplete pattern), usable with the keyboard alone and announced by
 * screen readers. The choice is shown above it, with a button to remove it.
 */
export const PeerPicker = reactive(
  ({ model, t, locale, error }: { model: PeerForm; t: Messages; locale: Locale; error: string | null }) => {
    const d = t.donate;
    const { peerQuery: query, peerActive: active } = model.peers;
    const activate = (index: number) => model.set(active, index);
    if (!model.campaign.value?.peer_fundraising) return null;
    const selected = model.peers.peer.value;
    const currency = model.campaign.value.currency;
    const money = (amount: string) => formatMoney(toCents(amount), currency, locale, true);
    const results = model.peers.peerResults.value ?? [];
    const failed = model.peers.peerFailed.value;
    const open = model.peers.peerResults.value !== null;

    function search(value: string) {
      activate(-1);
      model.peers.queuePeerSearch(value);
    }

    function choose(peer: Peer) {
      model.set(query, "");
      activate(-1);
      model.choosePeer(peer);
    }

    function onKeyDown(event: KeyboardEvent) {
      switch (event.key) {
        case "ArrowDown":
          event.preventDefault();
          if (open) activate(Math.min(results.length - 1, active.value + 1));
          else search(query.value);
          break;
        case "ArrowUp":
          event.preventDefault();
          if (open) activate(Math.max(0, active.value - 1));
          break;
        case "Enter": {
          const peer = open ? results[active.value] : undefined;
          if (peer) {
            event.preventDefault();
            choose(peer);
          }
          break;
        }
        case "Escape":
          if (open) {
            event.preventDefault();
            model.peers.closePeerResults();
          }
          break;
      }
    }

    const announcement = model.peers.peerSearching.value
      ? d.peerSearching
      : !open
        ? ""
        : results.length === 0
          ? d.peerNone
          : d.peerCount(results.length + model.peers.peerMore.value);
    return (
      <div class="gk-field">
        <label for={fieldId("peer")} part="label">
          {d.peerLabel} <span class="gk-muted">({t.common.optional})</span>
        </label>
        {selected ? (
          <p id={CHOSEN_ID} class="gk-chosen">
            {d.peerSupporting(peerLabel(selected, t))}{" "}
            {selected.raised === null ? null : (
              <span part="peer-progress">
                {d.peerRaised(money(selected.raised), selected.goal && money(selected.goal))}{" "}
              </span>
            )}
            <button
              type="button"
              class="gk-link"
              part="link"
              onClick={(event) => {
                model.choosePeer(null);
                event.currentTarget.closest(".gk-field")?.querySelector("input")?.focus();
              }}
            >
              {d.peerRemove}
            </button>
          </p>
        ) : null}
        {failed ? (
          // The page's fundraiser or team did not load: the donor tries again, or removes it to give without.
          <p role="alert" class="gk-chosen">
            {d.peerFailed}{" "}
            <button type="button" class="gk-link" part="link" onClick={() => void model.peers.retryPeer()}>
              {d.peerRetry}
            </button>{" "}
            <button type="button" class="gk-link" part="link" onClick={() => model.choosePeer(null)}>
              {d.peerRemove}
            </button>
          </p>
        ) : null}
        <p id={hintId("peer")} class="gk-hint">
          {d.peerHint}
        </p>
        <div class="gk-combo">
          <input
            id={fieldId("peer")}
            type="text"
            role="combobox"
            autocomplete="off"
            aria-autocomplete="list"
            aria-expanded={open ? "true" : "false"}
            aria-controls={LIST_ID}
            aria-activedescendant={open && active.value >= 0 ? optionId(active.value) : undefined}
            aria-invalid={error ? "true" : undefined}
            aria-describedby={[describedBy("peer", error, d.peerHint), selected ? CHOSEN_ID : ""]
              .filter(Boolean)
              .join(" ")}
            part="input"
            value={query.value}
            onInput={(event) => {
              model.set(query, event.currentTarget.value);
              model.clearError("peer");
              search(event.currentTarget.value);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => model.peers.closePeerResults()}
          />
          {/* oxlint-disable-next-line jsx-a11y/prefer-tag-over-role -- the combobox's popup (APG pattern); a <select> cannot be searched. */}
          <div id={LIST_ID} role="listbox" aria-label={d.peerLabel} hidden={!open || results.length === 0}>
            {results.map((peer, index) => (
              // The keyboard works on the combobox input (aria-activedescendant), as the pattern asks.
              // oxlint-disable-next-line jsx-a11y/click-events-have-key-events
              <div
                key={`${peer.kind}-${peer.id}`}
                id={optionId(index)}
                // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role -- an option of the listbox above.
                role="option"
                tabIndex={-1}
                aria-selected={index === active.value ? "true" : "false"}
                // Keeps focus in the input, so the list does not close before the click lands.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(peer)}
              >
                {peerLabel(peer, t)}
              </div>
            ))}
          </div>
        </div>
        <output class="gk-visually-hidden">{announcement}</output>
        <FieldError field="peer" error={error} />
      </div>
    );
  },
);
