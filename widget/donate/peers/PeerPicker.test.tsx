import { cleanup, fireEvent, waitFor, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import {
  HOPE,
  PEERS,
  useFakeCardFrame,
  reach,
  renderDonate,
  stubProxy,
  success,
} from "../../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

type Widget = Awaited<ReturnType<typeof renderDonate>>["widget"];

async function donateWith(widget: Widget) {
  fireEvent.input(widget.getByLabelText("First name"), { target: { value: "Grace" } });
  fireEvent.input(widget.getByLabelText("Last name"), { target: { value: "Hopper" } });
  fireEvent.input(widget.getByLabelText("E-mail"), { target: { value: "grace@example.org" } });
  frame().cardComplete();
  fireEvent.click(await reach(widget, /^Donate/));
  await widget.findByRole("heading", { name: "Thank you!" });
}

/** The options the picker lists for `query`, as the donor reads them. */
async function optionsFor(widget: Widget, label: RegExp, query: string) {
  fireEvent.input(widget.getByRole("combobox", { name: label }), { target: { value: query } });
  const list = await widget.findByRole("listbox");
  return within(list)
    .getAllByRole("option")
    .map((option) => option.textContent);
}

describe("the fundraiser and team picker", () => {
  it("is a combobox that searches as the donor types and shows fundraisers with their team", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate();
    const combo = widget.getByRole("combobox", { name: /Give in support of a fundraiser or team/ });
    expect(combo.getAttribute("aria-expanded")).toBe("false");
    fireEvent.input(combo, { target: { value: "pat" } });
    const list = await widget.findByRole("listbox");
    expect(combo.getAttribute("aria-expanded")).toBe("true");
    expect(combo.getAttribute("aria-controls")).toBe(list.id);
    expect(
      within(list)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Dev Patel · Team Night Owls"]);
    expect(proxy.calls.at(-1)?.url).toBe("https://give.example.org/v1/campaigns/71777/HOPE/peers?q=pat");
    expect(widget.getByText("1 match.")).toBeTruthy();

    fireEvent.input(combo, { target: { value: "zzz" } });
    await widget.findByText("No fundraiser or team matches.");
  });

  it("is usable with the keyboard alone, and teams can be chosen too", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    const combo = widget.getByRole("combobox", { name: /fundraiser or team/ });
    fireEvent.input(combo, { target: { value: "o" } });
    const list = await widget.findByRole("listbox");
    fireEvent.keyDown(combo, { key: "ArrowDown" });
    fireEvent.keyDown(combo, { key: "ArrowDown" });
    const options = within(list).getAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["Chloe Park", "Night Owls · Team"]);
    expect(combo.getAttribute("aria-activedescendant")).toBe(options[1]!.id);
    expect(options[1]!.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(combo, { key: "Enter" });

    expect(widget.getByText(/Your gift supports Night Owls · Team\./)).toBeTruthy();
    // A team's progress toward its own goal, as the peers answer gives it.
    expect(widget.getByText("$410.50 raised of $2,000.")).toBeTruthy();
    await donateWith(widget);
    const body = proxy.donationCalls()[0]!.body as Record<string, unknown>;
    expect(body.peer_fundraiser_team_id).toBe("12");
    expect(body).not.toHaveProperty("peer_fundraiser_id");
  });

  it("closes on Escape, and a chosen fundraiser can be removed again", async () => {
    stubProxy();
    const { widget } = await renderDonate();
    const combo = widget.getByRole("combobox", { name: /fundraiser or team/ });
    fireEvent.input(combo, { target: { value: "ana" } });
    await widget.findByRole("listbox");
    fireEvent.keyDown(combo, { key: "Escape" });
    expect(combo.getAttribute("aria-expanded")).toBe("false");

    fireEvent.input(combo, { target: { value: "ana" } });
    fireEvent.click(
      within(await widget.findByRole("listbox")).getByRole("option", {
        name: "Ana Ruiz · Team Sunrise",
      }),
    );
    expect(widget.getByText(/Your gift supports Ana Ruiz · Team Sunrise\./)).toBeTruthy();
    expect(widget.getByText("$1,230 raised so far.")).toBeTruthy();
    fireEvent.click(widget.getByRole("button", { name: "Remove" }));
    const again = widget.getByRole("combobox", { name: /fundraiser or team/ });
    await waitFor(() => expect(document.activeElement).toBe(again));
  });

  it("shows names as they are: no second Team before or after a name that has one, in English and Spanish", async () => {
    stubProxy();
    const english = await renderDonate();
    expect(await optionsFor(english.widget, /fundraiser or team/, "e")).toEqual([
      "Chloe Park",
      "Dev Patel · Team Night Owls",
      "Team Sunrise",
    ]);
    cleanup();
    const spanish = await renderDonate({ locale: "es" });
    expect(await optionsFor(spanish.widget, /recaudador o equipo/, "e")).toEqual([
      "Chloe Park",
      "Dev Patel · Equipo Night Owls",
      "Team Sunrise",
    ]);
    fireEvent.input(spanish.widget.getByRole("combobox", { name: /recaudador o equipo/ }), {
      target: { value: "o" },
    });
    const list = await spanish.widget.findByRole("listbox");
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole("option")
          .map((option) => option.textContent),
      ).toContain("Night Owls · Equipo"),
    );
  });

  it("is not shown when the campaign has no peer fundraising", async () => {
    stubProxy({ campaign: { status: 200, body: { ...HOPE, peer_fundraising: false } } });
    const { widget } = await renderDonate();
    expect(widget.queryByRole("combobox", { name: /fundraiser or team/ })).toBeNull();
  });

  it("renders names holding markup as text", async () => {
    stubProxy();
    PEERS.push({
      id: "199",
      name: "<img src=x onerror=alert(1)>Eve",
      kind: "fundraiser",
      team_id: null,
      team_name: null,
      raised: null,
      goal: null,
    });
    try {
      const { widget, host } = await renderDonate();
      fireEvent.input(widget.getByRole("combobox", { name: /fundraiser or team/ }), {
        target: { value: "eve" },
      });
      const list = await widget.findByRole("listbox");
      expect(within(list).getByRole("option").textContent).toBe("<img src=x onerror=alert(1)>Eve");
      expect(host.querySelector("img")).toBeNull();
    } finally {
      PEERS.pop();
    }
  });
});

describe("preselection", () => {
  it("takes ?fundraiser= from the host page's address", async () => {
    history.replaceState(null, "", "/walk?fundraiser=104");
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    expect(await widget.findByText(/Your gift supports Dev Patel · Team Night Owls\./)).toBeTruthy();
    await donateWith(widget);
    expect(proxy.donationCalls()[0]!.body).toMatchObject({ peer_fundraiser_id: "104" });
  });

  it("takes ?team= from the host page's address", async () => {
    history.replaceState(null, "", "/walk?team=11");
    stubProxy();
    const { widget } = await renderDonate();
    // A team whose name says "Team" is named as it is: no second "Team" before or after it.
    expect(await widget.findByText(/Your gift supports Team Sunrise\./)).toBeTruthy();
  });

  it("prefers the fundraiser attribute to the address", async () => {
    history.replaceState(null, "", "/walk?fundraiser=104");
    stubProxy();
    const { widget } = await renderDonate({ fundraiser: "101" });
    expect(await widget.findByText(/Your gift supports Ana Ruiz/)).toBeTruthy();
  });

  it("ignores, with a warning, an id that is not part of the campaign", async () => {
    history.replaceState(null, "", "/walk?fundraiser=999");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    stubProxy();
    const { widget } = await renderDonate();
    await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining("[givekit]")));
    expect(widget.getByRole("combobox", { name: /fundraiser or team/ })).toBeTruthy();
  });

  it("shows the proxy's refusal of an attribution on the picker", async () => {
    history.replaceState(null, "", "/walk?fundraiser=104");
    stubProxy({
      donations: [
        { status: 400, body: { type: "about:blank", title: "x", status: 400, code: "invalid_peer" } },
      ],
    });
    const { widget } = await renderDonate();
    await widget.findByText(/Your gift supports Dev Patel/);
    fireEvent.input(widget.getByLabelText("First name"), { target: { value: "Grace" } });
    fireEvent.input(widget.getByLabelText("Last name"), { target: { value: "Hopper" } });
    fireEvent.input(widget.getByLabelText("E-mail"), { target: { value: "grace@example.org" } });
    frame().cardComplete();
    fireEvent.click(await reach(widget, /^Donate/));
    expect(await widget.findByText("Choose a fundraiser or team from the list.")).toBeTruthy();
  });

  it("a link's fundraiser that cannot be looked up is said to the donor, and Donate waits until they try again", async () => {
    history.replaceState(null, "", "/walk?fundraiser=104");
    const proxy = stubProxy({ peers: ["network-error"], donations: [success()] });
    const { widget } = await renderDonate();
    const alert = await widget.findByRole("alert");
    expect(alert.textContent).toContain("This page's fundraiser or team did not load.");
    // The gift does not go on to no one: the first step is held with the picker's problem.
    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    expect(await widget.findByText("Choose a fundraiser or team from the list.")).toBeTruthy();
    expect(widget.getByRole("heading", { name: /Step 1 of 3/ })).toBeTruthy();
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await widget.findByText(/Your gift supports Dev Patel/)).toBeTruthy();
    await donateWith(widget);
    expect(proxy.donationCalls()[0]!.body).toMatchObject({ peer_fundraiser_id: "104" });
  });

  it("a donor may give without the fundraiser that could not be looked up", async () => {
    history.replaceState(null, "", "/walk?team=11");
    const proxy = stubProxy({
      peers: [
        { status: 503, body: { type: "about:blank", title: "x", status: 503, code: "upstream_unavailable" } },
      ],
      donations: [success()],
    });
    const { widget } = await renderDonate();
    fireEvent.click(within(await widget.findByRole("alert")).getByRole("button", { name: "Remove" }));
    expect(widget.queryByRole("alert")).toBeNull();
    await donateWith(widget);
    expect(proxy.donationCalls()[0]!.body).not.toHaveProperty("peer_fundraiser_team_id");
    expect(proxy.donationCalls()[0]!.body).not.toHaveProperty("peer_fundraiser_id");
  });
});

describe("searching", () => {
  it("closes the list when the search fails, rather than say that nobody matches", async () => {
    history.replaceState(null, "", "/walk");
    const proxy = stubProxy({ peers: ["network-error"] });
    const { widget } = await renderDonate();
    fireEvent.input(widget.getByRole("combobox", { name: /fundraiser or team/ }), {
      target: { value: "an" },
    });
    await waitFor(() => expect(proxy.calls.some((call) => call.url.includes("/peers?q=an"))).toBe(true));
    await waitFor(() => expect(widget.queryByText("Searching…")).toBeNull());
    expect(widget.queryByText("No fundraiser or team matches.")).toBeNull();
    expect(widget.getByRole("combobox", { name: /fundraiser or team/ }).getAttribute("aria-expanded")).toBe(
      "false",
    );
  });

  it("announces how many match, the ones shown and the rest the proxy counted", async () => {
    history.replaceState(null, "", "/walk");
    stubProxy({ peers: [{ status: 200, body: { peers: [PEERS[0]], more: 57 } }] });
    const { widget } = await renderDonate();
    expect(await optionsFor(widget, /fundraiser or team/, "a")).toHaveLength(1);
    // Announced with the rest the proxy counted: 1 shown and 57 more.
    expect(await widget.findByText("58 matches.")).toBeTruthy();
  });
});
