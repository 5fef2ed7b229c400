/**
 * Every language givekit speaks, in Chromium as a donor sees it: each element drawn with its
 * text whole (nothing cut or overflowing its box), the page still (layout shift ≤ 0.05), axe
 * clean, `lang` and `dir` right, at a phone's 390x844 and a laptop's 1280x800; and a donor who
 * gives in Arabic and in Vietnamese, each charged once in the sandbox's own report.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { RTL_LOCALES } from "../contract/locale-traits";
import { LOCALES } from "../contract/locales";
import { bundledMessages } from "../widget/i18n/bundled";
import { frameAr } from "../widget/i18n/frame-ar";
import { frameEn } from "../widget/i18n/frame-en";
import { frameVi } from "../widget/i18n/frame-vi";
import type { Messages } from "../widget/i18n";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CAMPAIGNS_PATH } from "../proxy/config/campaigns";
import { DISPLAY_WORDS } from "../contract/display-words";
import { cutNames, outOfView, textGift } from "./display-helpers";
import { CARD, cumulativeLayoutShift, donateOf, MAX_CLS, uniqueLastName } from "./donor-helpers";
import { expect, test, withServers } from "./fixtures";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const ELEMENTS = ["givekit-goal", "givekit-donate", "givekit-optin", "givekit-wall"] as const;
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Text in the elements' shadow trees wider or taller than its box, with overflow it cannot show. */
function overflowing(page: Page) {
  return page.evaluate(
    (tags) => {
      const found: string[] = [];
      for (const host of document.querySelectorAll(tags.join(","))) {
        for (const element of host.shadowRoot?.querySelectorAll(
          "h2, h3, p, label, legend, button, a, span, li",
        ) ?? []) {
          const box = element as HTMLElement;
          if (box.offsetParent === null || box.clientWidth === 0) continue;
          if (box.scrollWidth > box.clientWidth + 1)
            found.push(`${host.localName} ${box.localName}: "${box.textContent?.slice(0, 40)}"`);
        }
      }
      return found;
    },
    ELEMENTS as unknown as string[],
  );
}

for (const locale of LOCALES) {
  test.describe(`in ${locale}`, () => {
    for (const viewport of VIEWPORTS) {
      test(`${viewport.width}x${viewport.height}: every element whole, still, axe clean, lang and dir right`, async ({
        page,
        hostUrl,
      }) => {
        const t = (await bundledMessages(locale)) as Messages;
        await page.setViewportSize(viewport);
        await page.goto(`${hostUrl}/languages.html?locale=${locale}`);
        const donate = donateOf(page);
        await expect(donate.getByRole("heading", { level: 2, name: t.donate.heading })).toBeVisible();
        await expect(
          page.locator("givekit-optin").getByRole("button", { name: t.optin.submit }),
        ).toBeVisible();
        await expect(donate.locator("iframe").contentFrame().locator("html")).toHaveAttribute("lang", locale);
        const dir = RTL_LOCALES.includes(locale) ? "rtl" : "ltr";
        for (const tag of ELEMENTS) {
          const root = page.locator(tag).locator("[lang]").first();
          await expect(root, tag).toHaveAttribute("lang", locale);
          await expect(root, tag).toHaveAttribute("dir", dir);
        }
        expect(await overflowing(page)).toEqual([]);
        expect(await cumulativeLayoutShift(page)).toBeLessThanOrEqual(MAX_CLS);
        const axe = await new AxeBuilder({ page }).include(ELEMENTS.join(",")).withTags(WCAG_TAGS).analyze();
        expect(axe.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
      });
    }
  });
}

for (const [locale, frame] of [
  ["ar", frameAr],
  ["vi", frameVi],
] as const) {
  test(`a donor gives in ${locale}, from the first screen to the thank-you; the sandbox records one charge`, async ({
    page,
    sandbox,
    hostUrl,
  }) => {
    const t = (await bundledMessages(locale)) as Messages;
    const lastName = uniqueLastName(`Lang${locale}`);
    await page.goto(`${hostUrl}/languages.html?locale=${locale}`);
    const donate = donateOf(page);
    // $50, however the language writes it ("$50", "٥٠ US$").
    await donate.getByRole("radio", { name: /50|٥٠/ }).check();
    await donate.getByLabel(t.common.firstName).fill("Maya");
    await donate.getByLabel(t.common.lastName).fill(lastName);
    await donate.getByLabel(t.donateLater.email).fill("maya@example.org");
    const card = donate.locator("iframe").contentFrame();
    await card.getByLabel(frame.number).fill(CARD.number);
    await card.getByLabel(frame.expiry).fill(CARD.expiry);
    await card.getByLabel(frame.cvv).fill(CARD.cvv);
    await donate.getByRole("button", { name: t.donate.submit("", "").trim() }).click();
    await expect(donate.getByRole("heading", { name: t.donateLater.outcome.successTitle })).toBeVisible({
      timeout: 15_000,
    });
    const mine = (await sandbox.transactions({ keyword: "HOPE" })).filter(
      (row) => row.last_name === lastName,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: "collected", amount: "50.00", last_4: "4242" });
  });
}

test("e-mail, phone and amount fields read left to right in Arabic, at the end of the line as the fields around them; at the start in English", async ({
  page,
  hostUrl,
}) => {
  // Computed as written: `end` is the right in a field read left to right.
  for (const [locale, align] of [
    ["ar", "end"],
    ["en", "start"],
  ] as const) {
    const t = (await bundledMessages(locale)) as Messages;
    await page.goto(`${hostUrl}/languages.html?locale=${locale}`);
    const donate = donateOf(page);
    await donate.getByRole("radio", { name: t.donate.otherAmount }).check();
    const fields = [
      donate.getByLabel(t.donate.otherAmountLabel),
      donate.getByLabel(t.donateLater.email),
      page.locator("givekit-optin").getByLabel(t.optin.mobileLabel),
    ];
    for (const field of fields) {
      const style = await field.evaluate((input) => {
        const { direction, textAlign } = getComputedStyle(input);
        return [direction, textAlign];
      });
      expect(style, `${locale}: ${await field.getAttribute("type")}`).toEqual(["ltr", align]);
    }
  }
});

test("a language switch mid-form: the card frame's labels in the new language, the card number typed in it kept", async ({
  page,
  hostUrl,
}) => {
  await page.goto(`${hostUrl}/languages.html?locale=en&locales=en,vi`);
  const donate = donateOf(page);
  const card = donate.locator("iframe").contentFrame();
  await card.getByLabel(frameEn.number).fill(CARD.number);
  const typed = await card.getByLabel(frameEn.number).inputValue();
  expect(typed.replace(/\D/g, "")).toBe(CARD.number.replace(/\D/g, ""));
  await donate.locator("select.gk-language").selectOption("vi");
  await expect(card.locator("html")).toHaveAttribute("lang", "vi");
  // Read inside the frame: the label is Vietnamese's and the number is still the one typed.
  await expect(card.getByLabel(frameVi.number)).toHaveValue(typed);
  await expect(card.getByText(frameVi.expiryHint)).toBeVisible();
  await expect(card.getByText(frameEn.number, { exact: true })).toHaveCount(0);
});

test("a page that sets the element's locale by script: the form and its card frame in the new language, the card number typed kept", async ({
  page,
  hostUrl,
}) => {
  await page.goto(`${hostUrl}/languages.html?locale=en`);
  const donate = donateOf(page);
  const card = donate.locator("iframe").contentFrame();
  await card.getByLabel(frameEn.number).fill(CARD.number);
  const typed = await card.getByLabel(frameEn.number).inputValue();
  await page.locator("givekit-donate").evaluate((element) => element.setAttribute("locale", "vi"));
  const vi = (await bundledMessages("vi")) as Messages;
  await expect(donate.getByRole("heading", { level: 2, name: vi.donate.heading })).toBeVisible();
  await expect(card.locator("html")).toHaveAttribute("lang", "vi");
  await expect(card.getByLabel(frameVi.number)).toHaveValue(typed);
  await expect(card.getByText(frameEn.number, { exact: true })).toHaveCount(0);
});

test("a page's own words per language (window.givekitMessages): shown in their language, an unknown key one console warning", async ({
  page,
  hostUrl,
}) => {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning") warnings.push(message.text());
  });
  await page.addInitScript(() => {
    Object.assign(window, {
      givekitMessages: { es: { "donate.heading": "Done hoy a Hope", "donate.hedaing": "typo" } },
    });
  });
  await page.goto(`${hostUrl}/languages.html?locale=es`);
  const donate = donateOf(page);
  await expect(donate.getByRole("heading", { level: 2, name: "Done hoy a Hope" })).toBeVisible();
  const es = (await bundledMessages("es")) as Messages;
  await expect(page.locator("givekit-optin").getByRole("button", { name: es.optin.submit })).toBeVisible();
  expect(warnings.filter((text) => text.includes("givekitMessages"))).toEqual([
    '[givekit] givekitMessages.es names "donate.hedaing", not one of givekit\'s texts: passed over.',
  ]);
});

/** A proxy's campaigns file whose room display speaks `locale`. */
function campaignsSpeaking(locale: string): string {
  const config = JSON.parse(readFileSync(DEFAULT_CAMPAIGNS_PATH, "utf8")) as { displays: object[] };
  config.displays = config.displays.map((display) => ({ ...display, locale }));
  const path = join(mkdtempSync(join(tmpdir(), "givekit-display-")), "campaigns.json");
  writeFileSync(path, JSON.stringify(config));
  return path;
}

test.describe("the room's display in every language", () => {
  for (const locale of LOCALES) {
    test(`in ${locale}, at 390x844 and 1280x800: every text inside the screen and whole, axe clean, lang and dir right`, async ({
      browser,
    }) => {
      test.setTimeout(60_000);
      const t = DISPLAY_WORDS[locale];
      const env = { GIVEKIT_CAMPAIGNS: campaignsSpeaking(locale), GIVEKIT_PROGRESS_CACHE_S: "1" };
      await withServers(env, async ({ sandbox, proxy }) => {
        await textGift(sandbox.url, { amount: "120.00", first_name: "Rosa", last_name: "Núñez" });
        await textGift(sandbox.url, { amount: "25.00", first_name: "Theodora", last_name: "Montgomery" });
        for (const viewport of VIEWPORTS) {
          const size = `${viewport.width}x${viewport.height}`;
          const context = await browser.newContext({ viewport });
          const screen = await context.newPage();
          await screen.goto(`${proxy.url}/display/71777/HOPE`);
          await expect(screen.locator("html")).toHaveAttribute("lang", locale);
          await expect(screen.locator("html")).toHaveAttribute(
            "dir",
            RTL_LOCALES.includes(locale) ? "rtl" : "ltr",
          );
          await expect(screen.getByRole("heading", { name: t.latest })).toBeVisible();
          await expect(screen.locator('[data-part="wall"] .name')).toHaveCount(2);
          await screen.evaluate(() => document.fonts.ready);
          expect(await outOfView(screen), size).toEqual([]);
          expect(await cutNames(screen, 24), size).toEqual([]);
          const axe = await new AxeBuilder({ page: screen }).withTags(WCAG_TAGS).analyze();
          expect(
            axe.violations.map((violation) => `${violation.id}: ${violation.help}`),
            size,
          ).toEqual([]);
          await context.close();
        }
      });
    });
  }
});

/** The page's console warnings from givekit. */
function givekitWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" && message.text().startsWith("[givekit]")) warnings.push(message.text());
  });
  return warnings;
}

test.describe("bad input", () => {
  test.describe("a browser reading Vietnamese", () => {
    test.use({ locale: "vi-VN" });

    test("a locale givekit does not speak: the next rule (the browser's), said once in the console", async ({
      page,
      hostUrl,
    }) => {
      const warnings = givekitWarnings(page);
      const vi = (await bundledMessages("vi")) as Messages;
      await page.goto(`${hostUrl}/languages.html?locale=tlh`);
      await expect(donateOf(page).getByRole("heading", { level: 2, name: vi.donate.heading })).toBeVisible();
      await expect(
        page.locator("givekit-optin").getByRole("button", { name: vi.optin.submit }),
      ).toBeVisible();
      expect(warnings).toEqual([
        expect.stringMatching(/^\[givekit\] locale names "tlh", not a language givekit speaks/),
      ]);
    });

    test("a malformed page lang is ignored: the browser's language", async ({ page, hostUrl }) => {
      const vi = (await bundledMessages("vi")) as Messages;
      await page.goto(`${hostUrl}/languages.html?lang=${encodeURIComponent("fr_FR!")}`);
      await expect(donateOf(page).getByRole("heading", { level: 2, name: vi.donate.heading })).toBeVisible();
      await expect(donateOf(page).locator("[lang]").first()).toHaveAttribute("lang", "vi");
    });
  });

  test("a catalog that does not load: the form in English and usable, said once", async ({
    page,
    hostUrl,
  }) => {
    const warnings = givekitWarnings(page);
    // Every Vietnamese catalog, the card frame's too.
    await page.route(/\/assets\/[\w-]+-vi-[\w-]{8}\.js$/, (route) => route.abort());
    const en = (await bundledMessages("en")) as Messages;
    await page.goto(`${hostUrl}/languages.html?locale=vi`);
    const donate = donateOf(page);
    await expect(donate.getByRole("heading", { level: 2, name: en.donate.heading })).toBeVisible();
    await donate.getByLabel(en.common.firstName).fill("Maya");
    await expect(donate.getByLabel(en.common.firstName)).toHaveValue("Maya");
    const card = donate.locator("iframe").contentFrame();
    await card.getByLabel(frameEn.number).fill(CARD.number);
    await expect(card.locator("html")).toHaveAttribute("lang", "en");
    expect(warnings).toEqual(['[givekit] the "vi" messages could not be loaded: showing English.']);
  });
});
