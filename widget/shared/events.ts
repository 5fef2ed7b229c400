import type { Utm } from "../../contract/utm";

/** A donate form's campaign, its currency, the frequency chosen and the page's `utm_*` values. */
interface DonateContext extends Utm {
  currency?: string;
  shortcode?: string | null;
  keyword?: string | null;
  frequency?: string;
}

/** The events a host page can listen for; never any card data or phone number. */
export interface GivekitEventMap {
  "givekit:ready": { widget: "donate" | "optin" | "goal" | "wall" | "leaderboard" } & DonateContext;
  "givekit:donation": DonateContext & {
    /** Pending first when the outcome is unknown, then Success or NotCharged once it is known. */
    status: "Success" | "Pending" | "NotCharged";
    amount: string;
    frequency: string;
    transaction_id: string | null;
  };
  "givekit:subscribe": { status: "subscribed" };
  "givekit:error": { code: string };
}

/** Fires a bubbling, composed event on the element, so it crosses the shadow boundary. */
export function emit<K extends keyof GivekitEventMap>(
  host: HTMLElement,
  type: K,
  detail: GivekitEventMap[K],
): void {
  host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
