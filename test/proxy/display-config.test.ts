// The campaigns file's `displays`: checked with the file when the proxy starts.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Campaign } from "../../contract/api";
import { displayPage } from "../../proxy/campaign/display-page";
import { loadDisplays } from "../../proxy/campaign/directory";
import { ConfigError, DEFAULT_CAMPAIGNS_PATH, loadCampaigns } from "../../proxy/config";

const demo = JSON.parse(readFileSync(DEFAULT_CAMPAIGNS_PATH, "utf8")) as {
  campaigns: unknown[];
};

function fileWith(displays: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "givekit-displays-")), "campaigns.json");
  writeFileSync(path, JSON.stringify({ campaigns: demo.campaigns, displays }));
  return path;
}

function problemOf(displays: unknown): string {
  try {
    loadCampaigns(fileWith(displays));
  } catch (error) {
    if (error instanceof ConfigError) return `${error.variable}: ${error.message}`;
    throw error;
  }
  throw new Error("no problem found");
}

describe("the campaigns file's displays", () => {
  it("gives a display's settings by campaign, the demo's among them", () => {
    expect(loadDisplays(DEFAULT_CAMPAIGNS_PATH).get("71777/HOPE")).toMatchObject({
      donate_url: expect.stringMatching(/^http/),
    });
    const path = fileWith([
      { shortcode: "41444", keyword: "meals", donate_url: "https://meals.example/give", locale: "es" },
    ]);
    expect(loadCampaigns(path)).toHaveLength(demo.campaigns.length);
    expect([...loadDisplays(path).keys()]).toEqual(["41444/MEALS"]);
  });

  it("refuses a display of a campaign not listed, a donate URL that is not http(s), an unknown field", () => {
    expect(problemOf([{ shortcode: "71777", keyword: "NOPE", donate_url: "https://x.example" }])).toMatch(
      /GIVEKIT_CAMPAIGNS.*displays\.0: 71777\/NOPE is not one of the campaigns/,
    );
    expect(problemOf([{ shortcode: "71777", keyword: "HOPE", donate_url: "javascript:alert(1)" }])).toMatch(
      /displays\.0\.donate_url/,
    );
    expect(
      problemOf([{ shortcode: "71777", keyword: "HOPE", donate_url: "https://x.example", colour: "red" }]),
    ).toMatch(/displays\.0: unknown field colour/);
  });
});

describe("the display's page in the campaign's language", () => {
  const campaign = { shortcode: "71777", keyword: "HOPE", peer_fundraising: true } as Campaign;
  const assets = { script: "/display/display.js", style: "/display/display.css" };

  it("speaks Arabic right to left: lang and dir on the page, its words and the keyword to text", () => {
    const page = displayPage(
      campaign,
      { ...campaign, donate_url: "https://hope.example/give", locale: "ar" },
      assets,
    );
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("أحدث التبرعات");
    expect(page).toContain("أرسل <strong>HOPE</strong> إلى <strong>71777</strong>");
  });

  it.each(["vi", "ht", "zh-Hant"] as const)("%s: left to right, no English heading left", (locale) => {
    const page = displayPage(
      campaign,
      { ...campaign, donate_url: "https://hope.example/give", locale },
      assets,
    );
    expect(page).toContain(`<html lang="${locale}" dir="ltr">`);
    expect(page).not.toContain("Latest gifts");
  });

  it("refuses a language givekit does not speak, naming the field", () => {
    expect(
      problemOf([
        { shortcode: "71777", keyword: "HOPE", donate_url: "https://x.example", locale: "klingon" },
      ]),
    ).toMatch(/displays\.0\.locale/);
  });
});
