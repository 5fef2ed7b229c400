import * as z from "zod/mini";

export type CardBrand = "visa" | "mastercard" | "amex" | "discover" | "unknown";

/** Removes the spaces and dashes people type between digit groups. */
export function cardDigits(input: string): string {
  return input.replace(/[\s-]/g, "");
}

/** The Luhn checksum every real card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function cardBrand(digits: string): CardBrand {
  if (digits.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(digits)) return "mastercard";
  if (/^3[47]/.test(digits)) return "amex";
  if (/^(6011|65|64[4-9])/.test(digits)) return "discover";
  return "unknown";
}

export function cvvLength(brand: CardBrand): number {
  return brand === "amex" ? 4 : 3;
}

/** "04/2030" or "04/30" → {month: 4, year: 2030}; null when it is not a month and year. */
export function parseExpiry(input: string): { month: number; year: number } | null {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(input.trim());
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** A card is good through the last day of its expiry month. */
export function isExpired(expiry: { month: number; year: number }, now: Date = new Date()): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return expiry.year < y || (expiry.year === y && expiry.month < m);
}

/**
 * Card details as the donor types them; checked for Luhn, expiry and CVV length. Marked pure
 * (building it has no side effect) so that the card frame, which never parses it, drops it.
 */
export const CardSchema = /* @__PURE__ */ z
  .strictObject({
    card_number: /* @__PURE__ */ z.string().check(z.maxLength(32)),
    cvv: /* @__PURE__ */ z.string().check(z.regex(/^\d{3,4}$/, "The security code is 3 or 4 digits.")),
    expiration_date: /* @__PURE__ */ z.string().check(z.maxLength(16)),
  })
  .check((ctx) => {
    const digits = cardDigits(ctx.value.card_number);
    if (!luhnValid(digits)) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.card_number,
        path: ["card_number"],
        message: "The card number is not valid.",
      });
    } else if (/^\d{3,4}$/.test(ctx.value.cvv) && ctx.value.cvv.length !== cvvLength(cardBrand(digits))) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.cvv,
        path: ["cvv"],
        message: `The security code is ${cvvLength(cardBrand(digits))} digits for this card.`,
      });
    }
    const expiry = parseExpiry(ctx.value.expiration_date);
    if (!expiry) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.expiration_date,
        path: ["expiration_date"],
        message: "Enter the expiry date as MM/YYYY.",
      });
    } else if (isExpired(expiry)) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value.expiration_date,
        path: ["expiration_date"],
        message: "The card has expired.",
      });
    }
  });
export type Card = z.infer<typeof CardSchema>;
