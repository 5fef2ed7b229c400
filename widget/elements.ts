import { defineButtonElement } from "./button/element";
import { defineDonateElement } from "./donate/element";
import { defineGoalElement } from "./goal/element";
import { defineLeaderboardElement } from "./leaderboard/element";
import { defineOptinElement } from "./optin/element";
import { reserveRoom } from "./shared/room";
import { defineWallElement } from "./wall/element";

/**
 * Defines every custom element: `<givekit-donate>`, `<givekit-optin>`, `<givekit-goal>`,
 * `<givekit-button>`, `<givekit-wall>`, `<givekit-leaderboard>`. Safe to call twice.
 *
 * @example
 * import { defineElements } from "https://give.example.org/givekit.js";
 * defineElements();
 */
export function defineElements(): void {
  reserveRoom();
  defineDonateElement();
  defineOptinElement();
  defineGoalElement();
  defineButtonElement();
  defineWallElement();
  defineLeaderboardElement();
}

type AttributeValue = string | number | boolean | readonly (string | number)[] | null | undefined;

/** What mount() creates: the element, and its attributes by name or in camelCase. */
export interface MountOptions {
  /** Which element: "donate" (the default), "optin", "goal", "button", "wall" or "leaderboard". */
  widget?: "donate" | "optin" | "goal" | "button" | "wall" | "leaderboard";
  [attribute: string]: AttributeValue;
}

/** `defaultAmount` → `default-amount`; names already in kebab-case stay as they are. */
function attributeName(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * Creates a givekit element inside `target` (an element or a CSS selector) from a page's
 * own script, and returns it. Lists become comma lists; `false`, null and undefined are left out.
 *
 * @example
 * const donate = mount("#give", { shortcode: "71777", keyword: "HOPE", amounts: [25, 50, 100] });
 * donate.addEventListener("givekit:donation", (event) => console.log(event.detail.status));
 */
export function mount(target: Element | string, options: MountOptions): HTMLElement {
  defineElements();
  const parent = typeof target === "string" ? document.querySelector(target) : target;
  if (!parent) throw new Error(`[givekit] mount(): no element matches "${String(target)}".`);
  const { widget = "donate", ...attributes } = options;
  const element = document.createElement(`givekit-${widget}`);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    const text = value === true ? "" : Array.isArray(value) ? value.join(",") : String(value);
    element.setAttribute(attributeName(key), text);
  }
  parent.append(element);
  return element;
}
