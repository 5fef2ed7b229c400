import { act, cleanup, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { DASHBOARD_FORM_HEADER, type DashboardData } from "../../contract/dashboard";
import { createDashboardModel } from "./dashboard-model";
import { Dashboard } from "./Dashboard";
import { formatsFor } from "./format";
import { panelWords, type DashboardLanguage } from "./i18n";

afterEach(cleanup);

const HOUR = "2026-12-07T12:00:00.000Z";

/** The figures the proxy would send: `gifts` gifts today, a venue held. */
function figures(gifts: number): DashboardData {
  return {
    period: "today",
    campaign: null,
    campaigns: ["71777/HOPE"],
    at: "2026-12-07T12:30:05.000Z",
    funnel: [
      { step: "shown", reached: 6, left: 2, shareLeft: 1 / 3, reasons: [{ reason: "closed", count: 1 }] },
    ],
    channels: [{ name: "email", shown: 5, sent: 4, thanked: 3, declined: 1, shareFinished: 0.6 }],
    devices: [{ name: "phone", shown: 2, sent: 1, thanked: 1, declined: 0, shareFinished: 0.5 }],
    giving: {
      room: [{ campaign: "71777/HOPE", progress: null, failing: false }],
      gifts,
      cents: gifts * 2500,
      averageCents: 2500,
      recurringShare: 0,
      feeCoveredShare: 0,
      declined: 1,
      perHour: [{ hour: HOUR, gifts, cents: gifts * 2500 }],
    },
    defence: {
      challengesAsked: 1,
      challengesSolved: 1,
      solveMs: { p50: 400, p95: 800 },
      refusals: [{ reason: "challenge_failed", count: 1 }],
      declined: 1,
      perHour: [{ hour: HOUR, asked: 1, solved: 1, refused: 1, declined: 1 }],
      scrutinyOpen: [],
      breakersOpen: [],
      venue: { heldUntil: HOUR, clientsHeld: 1, cardsHeld: 2, cardsHeldElsewhere: 0, allowed: null },
      heldNow: { people: 0, longestS: 0 },
    },
    health: {
      store: true,
      unknownOutcomes: 0,
      webhooksWaiting: 0,
      webhooksDead: 0,
      webhooksFailing: [],
      defenceOpen: [],
      upstream: {
        answers: [{ label: "donate:answered", count: 1 }],
        latencyMs: { p50: 120, p95: 250 },
        perHour: [{ hour: HOUR, answers: { answered: 1 }, latencyMs: { p50: 120, p95: 250 } }],
      },
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** The dashboard drawn from a proxy that answers `first` to data.json and `posts` to its POSTs; its live stream is `stream`. */
function dashboard(
  language: DashboardLanguage,
  first: Response,
  posts: Response[] = [],
  search = "?period=today",
) {
  const stream = new EventTarget() as EventSource;
  stream.close = () => {};
  const sent: { url: string; init?: RequestInit }[] = [];
  const fetcher = (async (url: string, init?: RequestInit) => {
    sent.push({ url, init });
    return init?.method === "POST" ? posts.shift()! : first;
  }) as typeof fetch;
  const model = createDashboardModel("token-1", {
    search,
    fetcher,
    openStream: () => stream,
    setAddress: () => {},
  });
  render(<Dashboard model={model} t={panelWords(language)} f={formatsFor(language)} />);
  return { model, stream, sent };
}

/** The figure under a label in the panel under a heading, as the browser tests read it. */
const figureUnder = (panel: string, label: string) =>
  [...screen.getByRole("heading", { level: 2, name: panel }).closest("section")!.querySelectorAll(".figure")]
    .find((figure) => figure.querySelector("dt")?.textContent === label)
    ?.querySelector("dd")?.textContent;

describe("the staff dashboard", () => {
  it("draws every panel in Spanish from the first figures, and follows the live ones", async () => {
    const { model, stream } = dashboard("es", json(200, figures(5)));
    await act(() => model.follow());
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Cómo van los donativos");
    expect(screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual([
      "Donativos",
      "Dónde se detienen los donantes",
      "Por canal",
      "Por dispositivo",
      "Defensa",
      "Estado",
    ]);
    expect(figureUnder("Donativos", "Donativos")).toBe("5");
    expect(figureUnder("Defensa", "Verificaciones resueltas")).toBe("1");
    expect(
      screen.getByRole("table", { name: "Respuestas del servicio" }).querySelector("tbody")!.textContent,
    ).toBe("donate:answered1");
    expect(screen.getByRole("rowheader", { name: "Teléfono" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toMatch(/^En vivo, a las /);

    act(() => {
      stream.dispatchEvent(new MessageEvent("figures", { data: JSON.stringify(figures(6)) }));
    });
    expect(figureUnder("Donativos", "Donativos")).toBe("6");
    act(() => {
      stream.dispatchEvent(new Event("error"));
    });
    expect(screen.getByRole("status").textContent).toBe("Reconectando…");
  });

  it("asks before letting a venue with declined cards through, keeps the question across live figures, and sends the page's form token", async () => {
    const { model, stream, sent } = dashboard("en", json(200, figures(5)), [
      json(409, { code: "confirmation_required", detail: "2 declined cards from this network today." }),
    ]);
    await act(() => model.follow());
    const allow = screen.getByRole("button", { name: "Let this network through" });
    act(() => allow.click());
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("2 declined cards"));
    act(() => {
      stream.dispatchEvent(new MessageEvent("figures", { data: JSON.stringify(figures(6)) }));
    });
    expect(screen.getByRole("alert").textContent).toContain("2 declined cards");
    expect(screen.getByRole("button", { name: "Let it through anyway" })).toBeTruthy();
    const post = sent.find((s) => s.init?.method === "POST")!;
    expect(post.url).toBe("/dashboard/venue");
    expect(JSON.parse(String(post.init!.body))).toEqual({ hours: 6 });
    expect(new Headers(post.init!.headers).get(DASHBOARD_FORM_HEADER)).toBe("token-1");
  });

  it("says the session has ended when the figures answer 401, and follows nothing", async () => {
    const { model } = dashboard("en", json(401, { title: "Unauthorized" }));
    await act(() => model.follow());
    expect(screen.getByText("Your session has ended: sign in again with a new link.")).toBeTruthy();
    expect(screen.queryByRole("heading", { level: 2 })).toBeNull();
  });
});
