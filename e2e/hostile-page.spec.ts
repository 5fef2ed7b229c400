/**
 * A page whose theme sets every text property with !important, on `*` (which matches the
 * givekit elements themselves) and on `body`: the forms must look exactly as they do on a
 * plain page, and only the --givekit-* properties may change them.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** The text properties a theme sets, and a box's size, which follows from them. */
const PROPERTIES = [
  "color",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "line-height",
  "letter-spacing",
  "word-spacing",
  "text-transform",
  "text-align",
  "text-indent",
] as const;

/** One of each kind of text in both forms, and the card frame's box. */
const SAMPLES = {
  "givekit-donate": [
    "h2",
    "legend",
    "label",
    ".gk-chip span",
    ".gk-hint",
    "input[type=text]",
    "select",
    "textarea",
    "[type=submit]",
  ],
  "givekit-optin": ["h2", "label", ".gk-hint", "input[type=tel]", "[type=submit]"],
} as const;

type Seen = Record<string, Record<string, string>>;

/** The computed text properties and the rendered size of every sample, as the page shows them. */
async function seenOn(page: Page, path: string): Promise<Seen> {
  await page.goto(path);
  await expect(page.locator("givekit-donate").getByRole("button", { name: /^Donate / })).toBeVisible();
  await expect(page.locator("givekit-optin").getByRole("button", { name: "Subscribe" })).toBeVisible();
  await expect(page.locator("givekit-donate").locator("iframe")).toHaveAttribute("style", /height: \d+px/);
  return page.evaluate(
    ({ samples, properties }) => {
      const seen: Record<string, Record<string, string>> = {};
      for (const [tag, selectors] of Object.entries(samples)) {
        const root = document.querySelector(tag)!.shadowRoot!;
        const form = root.querySelector(".gk-root")!.getBoundingClientRect();
        seen[`${tag} form`] = { width: String(form.width), height: String(form.height) };
        // The card frame is the element's own child, shown through the form's slot: its box is
        // the form's to keep; its text properties are its page's (and reach no card field).
        const frame = document.querySelector(tag)!.querySelector(":scope > iframe");
        if (frame) {
          const box = frame.getBoundingClientRect();
          seen[`${tag} card frame`] = { width: String(box.width), height: String(box.height) };
        }
        for (const selector of selectors) {
          const element = root.querySelector(selector);
          if (!element) throw new Error(`${tag} has no ${selector}`);
          const style = getComputedStyle(element);
          const box = element.getBoundingClientRect();
          seen[`${tag} ${selector}`] = {
            ...Object.fromEntries(properties.map((name) => [name, style.getPropertyValue(name)])),
            width: String(box.width),
            height: String(box.height),
          };
        }
      }
      return seen;
    },
    { samples: SAMPLES, properties: PROPERTIES },
  );
}

/** The card frame's own text, which only the page's --givekit-* values may change. */
async function frameTextOn(page: Page) {
  const frame = page.locator("givekit-donate").locator("iframe").contentFrame();
  return frame.getByLabel("Card number").evaluate((input) => {
    const label = getComputedStyle(input.ownerDocument.querySelector("label")!);
    return { color: label.color, font: label.font, letterSpacing: label.letterSpacing, src: location.search };
  });
}

/** The text properties of one element, as a donor sees them. */
function textOf(element: Element) {
  const style = getComputedStyle(element);
  return { color: style.color, size: style.fontSize, family: style.fontFamily, case: style.textTransform };
}

test.describe("a host page with hostile global CSS", () => {
  test("leaves the forms' text, boxes and card frame exactly as on a plain page", async ({
    page,
    hostUrl,
  }) => {
    const plain = await seenOn(page, `${hostUrl}/plain.html`);
    const plainFrame = await frameTextOn(page);
    const hostile = await seenOn(page, `${hostUrl}/hostile.html`);
    const hostileFrame = await frameTextOn(page);

    // The page's rules did apply to the page, and to the elements themselves.
    const pageHeading = await page.locator("h1").evaluate((h1) => getComputedStyle(h1).textTransform);
    expect(pageHeading).toBe("uppercase");
    expect(await page.locator("givekit-donate").evaluate((host) => getComputedStyle(host).color)).toBe(
      "rgb(208, 0, 0)",
    );

    expect(hostile).toEqual(plain);
    expect(hostileFrame).toEqual(plainFrame);
    expect(plain["givekit-donate label"]).toMatchObject({
      color: "rgb(27, 31, 36)",
      "font-size": "16px",
      "text-transform": "none",
      "letter-spacing": "normal",
    });
  });

  test("the --givekit-* properties still theme the text, on the hostile page too", async ({
    page,
    hostUrl,
  }) => {
    await page.goto(`${hostUrl}/hostile-themed.html`);
    const donate = page.locator("givekit-donate");
    await expect(donate.getByRole("button", { name: /^Donate / })).toBeVisible();
    expect(await donate.getByText("First name", { exact: true }).evaluate(textOf)).toEqual({
      color: "rgb(0, 60, 40)",
      size: "18px",
      family: "Georgia, serif",
      case: "none",
    });
    // The card frame takes the same colour, font and size, so its rem is the form's em.
    const card = donate.locator("iframe").contentFrame();
    expect(await card.getByText("Card number", { exact: true }).evaluate(textOf)).toEqual({
      color: "rgb(0, 60, 40)",
      size: "18px",
      family: "Georgia, serif",
      case: "none",
    });
    // And the page keeps the frame's box at the frame's height, now in 18 px text.
    await expect(donate.locator("iframe")).toHaveAttribute("style", /height: \d+px/);
    const frameHeight = (await donate.locator("iframe").boundingBox())!.height;
    const content = await card.locator("body").evaluate((body) => body.getBoundingClientRect().height);
    expect(Math.abs(frameHeight - content)).toBeLessThanOrEqual(1);
  });
});
