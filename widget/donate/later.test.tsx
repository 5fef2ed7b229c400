// The first step works before the rest of the form (widget/donate/later.ts and its words) has
// come; the steps after it wait for it, and a rest that could not load is fetched again.
import { fireEvent, render, waitFor, within } from "@testing-library/preact";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { readDonateAttributes } from "./base/attributes";
import { DonateWidget } from "./DonateWidget";
import { PROXY, stubProxy, useFakeCardFrame } from "../../test/helpers/donate-harness";

/** The rest of the form's arrival, as the network has it: held back, or failing the next times. */
const network = vi.hoisted(() => ({ arrived: Promise.resolve(), failures: 0 }));

vi.mock("./load-later", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./load-later")>();
  return {
    ...actual,
    loadLater: async (...args: Parameters<typeof actual.loadLater>) => {
      if (network.failures > 0) {
        network.failures -= 1;
        throw new TypeError("Failed to fetch dynamically imported module");
      }
      await network.arrived;
      return actual.loadLater(...args);
    },
  };
});

useFakeCardFrame();

/** Holds the rest of the form back until the returned function lets it come. */
function holdBack(): () => void {
  let release: (() => void) | undefined;
  network.arrived = new Promise((resolve) => (release = resolve));
  return () => release?.();
}

beforeEach(() => {
  network.arrived = Promise.resolve();
  network.failures = 0;
});

async function renderForm(attributes: Record<string, string> = {}) {
  const all: Record<string, string> = { proxy: PROXY, shortcode: "71777", keyword: "HOPE", ...attributes };
  const result = readDonateAttributes((name) => all[name] ?? null);
  if (!result.ok) throw new Error(result.problem);
  const host = document.createElement("div");
  document.body.append(host);
  render(<DonateWidget {...result.props} host={host} />, { container: host });
  return { host, widget: within(host) };
}

const shownStep = (host: HTMLElement) =>
  [...host.querySelectorAll<HTMLElement>(".gk-step")].find((step) => !step.hidden)?.querySelector("h3")
    ?.textContent;

describe("the rest of the form, fetched as the form opens", () => {
  it("in steps: the gift can be chosen before it has come; Next waits for it, then shows the donor's step", async () => {
    stubProxy();
    const release = holdBack();
    const { host, widget } = await renderForm();
    fireEvent.click(await widget.findByRole("radio", { name: "$50" }));
    expect(widget.getByRole("button", { name: "Next" })).toBeTruthy();
    // Nothing of the later steps yet: no donor's fields, no card frame.
    expect(widget.queryByLabelText("First name")).toBeNull();
    expect(host.querySelector("iframe")).toBeNull();

    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(shownStep(host)).toBe("Step 1 of 3: Your gift");

    release();
    await waitFor(() => expect(shownStep(host)).toBe("Step 2 of 3: About you"));
    expect(document.activeElement).toBe(widget.getByLabelText("First name"));
    expect(host.querySelector("iframe")).not.toBeNull();
  });

  it("on one page: the form shows whole, once the rest has come", async () => {
    stubProxy();
    const release = holdBack();
    const { widget } = await renderForm({ layout: "single" });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(widget.getByText("Loading the donation form…")).toBeTruthy();
    expect(widget.queryByRole("radio", { name: "$50" })).toBeNull();

    release();
    expect(await widget.findByRole("button", { name: "Donate $25.00" })).toBeTruthy();
    expect(widget.getByLabelText("First name")).toBeTruthy();
    expect(widget.getByTitle("Card details")).toBeTruthy();
  });

  it("when it cannot come, Next says the connection failed; the next press fetches it again", async () => {
    stubProxy();
    // As the form opens, and at the first Next.
    network.failures = 2;
    const { host, widget } = await renderForm();
    fireEvent.click(await widget.findByRole("button", { name: "Next" }));
    expect((await widget.findByRole("alert")).textContent).toBe(
      "We could not reach the server. Check your connection and try again.",
    );
    expect(shownStep(host)).toBe("Step 1 of 3: Your gift");

    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(shownStep(host)).toBe("Step 2 of 3: About you"));
    expect(widget.queryByRole("alert")).toBeNull();
  });

  it("on one page, a rest that could not load as the form opened is fetched at Donate, and its fields asked; nothing is sent", async () => {
    const proxy = stubProxy();
    // As the model is made, and as the form loads.
    network.failures = 2;
    const { widget } = await renderForm({ layout: "single" });
    expect(await widget.findByRole("button", { name: "Donate $25.00" })).toBeTruthy();
    expect(widget.queryByLabelText("First name")).toBeNull();
    fireEvent.click(await widget.findByRole("button", { name: "Donate $25.00" }));
    const firstName = await widget.findByLabelText("First name");
    await waitFor(() => expect(firstName.getAttribute("aria-invalid")).toBe("true"));
    expect(proxy.donationCalls()).toHaveLength(0);
  });
});
