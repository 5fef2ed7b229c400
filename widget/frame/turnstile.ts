/**
 * Cloudflare Turnstile, the challenge the proxy may ask for in defence mode: a chunk of its own,
 * fetched with the script only when asked (challenge.ts reads the request for it).
 */
import type { TurnstileChallenge } from "../../contract/api";

/** What the frame uses of the challenge script's global (Cloudflare Turnstile's explicit API). */
interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      language?: string;
      size?: "flexible";
      callback: (token: string) => void;
      "error-callback": () => void;
      "expired-callback": () => void;
    },
  ): string | undefined;
  remove?(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/**
 * Loads the challenge script, once, and only now that the proxy asked for it: a donor who never
 * meets defence mode never fetches it. The frame's CSP allows exactly this script's origin.
 */
function loadScript(url: string): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.addEventListener("load", () =>
      window.turnstile ? resolve(window.turnstile) : reject(new Error("no API")),
    );
    script.addEventListener("error", () => reject(new Error("not loaded")));
    document.head.append(script);
  }).catch((error: unknown) => {
    // A failed load may be retried on the next attempt.
    loading = null;
    throw error;
  });
  return loading;
}

/** The challenge on screen, drawn again in another language by speakChallenge(). */
let shown: ((language: string) => void) | null = null;

/**
 * Shows the challenge in `container` and resolves with its proof (a single-use token) once the
 * donor passes it; rejects when the script cannot load or the challenge fails or expires.
 *
 * @example
 * const proof = await solveChallenge(element, challenge, "en");
 */
export async function solveChallenge(
  container: HTMLElement,
  challenge: TurnstileChallenge,
  language: string,
): Promise<string> {
  const api = await loadScript(challenge.script_url);
  return new Promise<string>((resolve, reject) => {
    let id: string | undefined;
    const clear = () => {
      if (id !== undefined) api.remove?.(id);
      container.replaceChildren();
    };
    const done = (finish: () => void) => {
      shown = null;
      clear();
      finish();
    };
    const draw = (tag: string) => {
      id = api.render(container, {
        sitekey: challenge.site_key,
        language: tag,
        // As wide as the frame, which a narrow page makes narrower than Turnstile's usual 300 px.
        size: "flexible",
        callback: (token) => done(() => resolve(token)),
        "error-callback": () => done(() => reject(new Error("challenge failed"))),
        "expired-callback": () => done(() => reject(new Error("challenge expired"))),
      });
    };
    shown = (next) => {
      clear();
      draw(next);
    };
    draw(language);
  });
}

/**
 * The challenge on screen, if one is, drawn again in `language` (the donor switched language):
 * Turnstile takes its language only as it draws. The donor's proof still answers the same wait.
 */
export function speakChallenge(language: string): void {
  shown?.(language);
}
