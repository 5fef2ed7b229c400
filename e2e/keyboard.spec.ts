import type { Frame, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { donateOf, formatted, GOOD_CARD, optinOf, uniqueMobile, uniqueName } from "./optin-helpers";

/** What has keyboard focus: its accessible-ish name, role hints, and whether its focus is visible. */
interface Focused {
  frame: "page" | "card";
  tag: string;
  type: string;
  name: string;
  checked: boolean;
  focusVisible: boolean;
}

/** Runs inside a document: describes the deepest focused element, through shadow roots. */
function describeFocus(): Omit<Focused, "frame"> & { isFrame: boolean } {
  let element: Element | null = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  const el = element as HTMLInputElement | null;
  if (!el || el === document.body) {
    return { isFrame: false, tag: "body", type: "", name: "", checked: false, focusVisible: false };
  }
  const labelled = el.getAttribute("aria-labelledby");
  const root = el.getRootNode() as Document | ShadowRoot;
  const name =
    el.getAttribute("aria-label") ??
    (labelled ? (root.getElementById(labelled)?.textContent ?? "") : null) ??
    (el.labels && el.labels.length > 0 ? el.labels[0]!.textContent : null) ??
    el.textContent ??
    "";
  const style = getComputedStyle(el);
  return {
    isFrame: el.localName === "iframe",
    tag: el.localName,
    type: el.getAttribute("type") ?? "",
    name: name.replace(/\s+/g, " ").trim(),
    checked: Boolean(el.checked),
    focusVisible:
      el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
  };
}

function cardFrame(page: Page): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes("/frame/card"));
  if (!frame) throw new Error("the card frame is not loaded");
  return frame;
}

async function focused(page: Page): Promise<Focused> {
  const top = await page.evaluate(describeFocus);
  if (!top.isFrame) return { frame: "page", ...top };
  const inner = await cardFrame(page).evaluate(describeFocus);
  return { frame: "card", ...inner };
}

/** Presses Tab (at most `limit` times) until the focused element matches; every stop must show focus. */
async function tabTo(page: Page, matches: (focus: Focused) => boolean, limit = 60): Promise<Focused> {
  const stops: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press("Tab");
    const focus = await focused(page);
    stops.push(`${focus.frame}:${focus.tag}:${focus.name}`);
    if (focus.tag !== "body") {
      expect(focus.focusVisible, `focus is visible on ${focus.tag} "${focus.name}"`).toBe(true);
    }
    if (matches(focus)) return focus;
  }
  throw new Error(`Tab never reached the element; stops: ${stops.join(" | ")}`);
}

const named = (name: string | RegExp) => (focus: Focused) =>
  typeof name === "string" ? focus.name === name : name.test(focus.name);

test.describe("keyboard only", () => {
  test("an SMS opt-in, start to finish", async ({ page, sandbox, hostUrl }) => {
    await page.goto(`${hostUrl}/optin.html`);
    await expect(optinOf(page).getByRole("button", { name: "Subscribe" })).toBeVisible();
    const mobile = uniqueMobile();

    // Submitting too early shows the errors and puts focus on the first one.
    await tabTo(page, named("Subscribe"));
    await page.keyboard.press("Enter");
    await expect(optinOf(page).getByLabel("Mobile number")).toBeFocused();

    await page.keyboard.type(mobile);
    await page.keyboard.press("Tab");
    expect((await focused(page)).name).toBe("First name");
    await page.keyboard.type("Ada");
    await page.keyboard.press("Tab");
    expect((await focused(page)).name).toBe("Last name");
    await page.keyboard.type("Lovelace");
    await tabTo(page, (focus) => focus.type === "checkbox");
    await page.keyboard.press("Space");
    expect((await focused(page)).checked).toBe(true);
    await tabTo(page, named("Subscribe"));
    await page.keyboard.press("Enter");

    const heading = optinOf(page).getByRole("heading", { name: "You're subscribed" });
    await expect(heading).toBeFocused();
    await expect(optinOf(page).getByText(`will text ${formatted(mobile)}`)).toBeVisible();
    expect((await sandbox.subscriptions()).filter((row) => row.mobilenumber === mobile)).toMatchObject([
      { list: "Hope Alerts" },
    ]);
  });

  test("a donation with a chosen amount and a card typed in the frame", async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    await page.goto(`${hostUrl}/embed-script.html`);
    const donate = donateOf(page);
    await expect(donate.locator("iframe").contentFrame().getByLabel("Card number")).toBeVisible();
    const last = uniqueName("Keys");

    // The amounts are one radio group: Tab lands on the chosen one, arrows move the choice.
    const amount = await tabTo(
      page,
      (focus) => focus.type === "radio" && focus.checked && focus.name.startsWith("$"),
    );
    expect(amount.name).toBe("$25");
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toMatchObject({ name: "$50", checked: true });

    await tabTo(page, named("First name"));
    await page.keyboard.type("Grace");
    await tabTo(page, named("Last name"));
    await page.keyboard.type(last);
    await tabTo(page, named("E-mail"));
    await page.keyboard.type("grace@example.org");

    await tabTo(page, (focus) => focus.frame === "card" && focus.name.startsWith("Card number"));
    await page.keyboard.type(GOOD_CARD.number);
    await tabTo(page, (focus) => focus.frame === "card" && focus.name.startsWith("Expiry date"));
    await page.keyboard.type(GOOD_CARD.expiry);
    await tabTo(page, (focus) => focus.frame === "card" && focus.name.startsWith("Security code"));
    await page.keyboard.type(GOOD_CARD.cvv);

    await tabTo(page, named(/^Donate \$50/));
    await page.keyboard.press("Enter");
    await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });

    const rows = (await sandbox.transactions({ keyword: "HOPE" })).filter((row) => row.last_name === last);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.donation_amount).toBe("50.00");
  });
});
