// One name field (`fields="full-name"`) and the channel tag (`source`), in a browser: what the
// donor sees, and what the sandbox's own report records of the gift.
import { expect, test } from "./fixtures";
import { cardOf, donateOf, fillCardAtOnce, uniqueLastName } from "./donor-helpers";

/** What this test reads of the sandbox's transactions report. */
type Row = { first_name: string | null; last_name: string | null; source: string; amount: string };

test('fields="full-name": one labelled field, sent as full_name; the gift carries source="spring-gala"', async ({
  page,
  sandbox,
  hostUrl,
}) => {
  const lastName = uniqueLastName("Hopper");
  await page.goto(`${hostUrl}/full-name.html`);
  const donate = donateOf(page);
  await expect(cardOf(page).getByLabel("Card number")).toBeVisible();

  const name = donate.getByLabel("Full name");
  await expect(name).toHaveAttribute("autocomplete", "name");
  await expect(donate.getByLabel("First name")).toHaveCount(0);
  await expect(donate.getByLabel("Last name")).toHaveCount(0);

  await donate.getByRole("radio", { name: "$50" }).check();
  await donate.getByLabel("E-mail").fill("grace@example.org");
  await fillCardAtOnce(cardOf(page));
  // Left empty, the name is the one field refused, and nothing is sent.
  const donations: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/v1/donations")
      donations.push(request.postData() ?? "");
  });
  await donate.getByRole("button", { name: /^Donate / }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  expect(donations).toEqual([]);

  await name.fill(`Grace Brewster ${lastName}`);
  await donate.getByRole("button", { name: /^Donate / }).click();
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible();

  expect(donations).toHaveLength(1);
  expect(JSON.parse(donations[0]!)).toMatchObject({
    source: "spring-gala",
    donor: { full_name: `Grace Brewster ${lastName}`, email: "grace@example.org" },
  });
  expect(JSON.parse(donations[0]!).donor).not.toHaveProperty("first_name");
  const rows = ((await sandbox.transactions({ keyword: "HOPE" })) as Row[]).filter(
    (row) => row.last_name === lastName,
  );
  expect(rows).toEqual([
    expect.objectContaining({
      first_name: "Grace Brewster",
      last_name: lastName,
      amount: "50.00",
      source: expect.stringMatching(/^api_via_givekit\.spring-gala\.gk_[0-9a-f]{20}$/),
    }),
  ]);
});
