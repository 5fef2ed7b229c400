/**
 * Helpers shared by the opt-in, accessibility, keyboard and embed-mode specs: filling both
 * widgets as a person would, and reading the proxy's consent records.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { openSqlite } from "../sqlite/open";
import { expect, type Locator, type Page } from "@playwright/test";
import { DB_FILE } from "../proxy/store/sqlite/data-dir";
import type { ConsentRecord } from "../proxy/store/types";
import { reachDonate, showStep } from "./donor-helpers";
import { FUTURE_EXPIRY } from "../test/helpers/cards";

/** The test card that always succeeds, and a expiry date safely in the future. */
export const GOOD_CARD = { number: "4242424242424242", expiry: FUTURE_EXPIRY, cvv: "123" };

let mobileCounter = 0;

/** A fresh 10-digit 555 number per call, so runs sharing a sandbox never collide. */
export function uniqueMobile(): string {
  mobileCounter += 1;
  const tail = (Date.now() * 100 + (process.pid % 100) + mobileCounter) % 10_000_000;
  return `555${String(tail).padStart(7, "0")}`;
}

/** "5550101234" → "(555) 010-1234". */
export function formatted(digits: string): string {
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

export const optinOf = (page: Page): Locator => page.locator("givekit-optin");
export const donateOf = (page: Page): Locator => page.locator("givekit-donate");

/** Fills the opt-in form with the mouse and keyboard, as typed (not pasted) text. */
export async function fillOptin(optin: Locator, mobile: string, options: { consent?: boolean } = {}) {
  await optin.getByLabel("Mobile number").pressSequentially(mobile);
  await optin.getByLabel("First name").fill("Ada");
  await optin.getByLabel("Last name").fill("Lovelace");
  if (options.consent ?? true)
    await optin.getByRole("checkbox", { name: /I agree to receive text messages/ }).check();
}

/** Subscribes `mobile` through the opt-in form and waits for the confirmation. */
export async function completeOptin(page: Page, mobile: string): Promise<void> {
  const optin = optinOf(page);
  await fillOptin(optin, mobile);
  await optin.getByRole("button", { name: "Subscribe" }).click();
  await expect(optin.getByRole("heading", { name: "You're subscribed" })).toBeVisible();
}

/** The disclosure text the opt-in form is showing right now. */
export async function shownDisclosure(optin: Locator): Promise<string> {
  return (await optin.locator(".gk-disclosure").textContent()) ?? "";
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The proxy's consent records, read straight from its SQLite database (read-only). */
export function consentRecords(dataDir: string): ConsentRecord[] {
  const db = openSqlite(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], ConsentRecord>("SELECT * FROM consent_records ORDER BY id").all();
  } finally {
    db.close();
  }
}

/** The consent records of one number. */
export function consentsOf(dataDir: string, mobile: string): ConsentRecord[] {
  return consentRecords(dataDir).filter((record) => record.mobilenumber === mobile);
}

/** The card frame inside the donate widget's shadow root. */
export const cardFrameOf = (page: Page) => donateOf(page).locator("iframe").contentFrame();

/** Fills the donation form (first preset amount) with a good card and donor details. */
export async function fillDonation(page: Page, donor: { first: string; last: string; email: string }) {
  const donate = donateOf(page);
  await showStep(donate, "About you");
  await donate.getByLabel("First name").fill(donor.first);
  await donate.getByLabel("Last name").fill(donor.last);
  await donate.getByLabel("E-mail").fill(donor.email);
  await showStep(donate, "Payment");
  const card = cardFrameOf(page);
  await card.getByLabel("Card number").pressSequentially(GOOD_CARD.number);
  await card.getByLabel("Expiry date").pressSequentially(GOOD_CARD.expiry);
  await card.getByLabel("Security code").pressSequentially(GOOD_CARD.cvv);
}

/** Donates through the donate widget and waits for the thank-you. */
export async function completeDonation(page: Page, donor: { first: string; last: string; email: string }) {
  await fillDonation(page, donor);
  const donate = donateOf(page);
  await (await reachDonate(donate)).click();
  await expect(donate.getByRole("heading", { name: "Thank you!" })).toBeVisible({ timeout: 15_000 });
}

/** A last name no other test uses, to find this test's row in the sandbox's report. */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/**
 * Cents as givekit's progress figures word them in English: whole dollars without cents
 * ("$1,230"), else with them ("$410.50").
 */
export function shownMoney(cents: number): string {
  const whole = cents % 100 === 0;
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    ...(whole && { minimumFractionDigits: 0, maximumFractionDigits: 0 }),
  }).format(cents / 100);
}

/** The sum, in cents, of a field of the sandbox's report rows. */
export const sumCents = (rows: readonly Record<string, unknown>[], field: "amount" | "donation_amount") =>
  rows.reduce((sum, row) => sum + Math.round(Number(row[field]) * 100), 0);
