import { describe, expect, it } from "vitest";
import { ANONYMOUS, wallEntry, wallName, type WallSourceRow } from "./wall";

const row = (over: Partial<WallSourceRow> & Record<string, unknown> = {}): WallSourceRow => ({
  transaction_id: "t1",
  donation_amount: "25.00",
  status: "collected",
  anonymous: false,
  first_name: "Ana",
  last_name: "García",
  peer_fundraiser_id: "f1",
  peer_fundraiser_team_id: "team9",
  created_at: "2026-11-27T01:00:00Z",
  pledge_wall: "true",
  ...over,
});

describe("wall entry", () => {
  it("shows first name, last initial, amount, peer and time of a collected wall gift", () => {
    expect(wallEntry(row())).toEqual({
      id: "t1",
      name: "Ana G.",
      amount: "25.00",
      fundraiser_id: "f1",
      team_id: "team9",
      at: "2026-11-27T01:00:00Z",
    });
  });

  it("never names a donor who gave anonymously", () => {
    expect(wallEntry(row({ anonymous: true }))?.name).toBe(ANONYMOUS);
  });

  it("reads the report's boolean pledge_wall as well as the string", () => {
    expect(wallEntry(row({ pledge_wall: true }))?.name).toBe("Ana G.");
    expect(wallEntry(row({ pledge_wall: false }))).toBeNull();
  });

  it("leaves out gifts the donor kept off the wall, or did not say", () => {
    expect(wallEntry(row({ pledge_wall: "false" }))).toBeNull();
    expect(wallEntry(row({ pledge_wall: undefined }))).toBeNull();
  });

  it("leaves out gifts the upstream did not collect", () => {
    for (const status of ["declined", "failed", "pending", "refunded", "voided"]) {
      expect(wallEntry(row({ status }))).toBeNull();
    }
  });

  it("copies no contact detail, message or dedication of the donor", () => {
    const entry = wallEntry(
      row({
        email: "ana@example.org",
        phone: "5555550100",
        street_address: "1 Main St",
        memo: "in memory of Rosa",
        dedication: "Rosa",
      } as Partial<WallSourceRow>),
    );
    const text = JSON.stringify(entry);
    for (const secret of ["ana@example.org", "5555550100", "Main St", "Rosa", "García"]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe("wall name", () => {
  it("drops bidi controls and control characters, keeps markup as plain text", () => {
    expect(wallName("\u202eAna\u0007", "<b>x</b>")).toBe("Ana <.");
  });

  it("trims a 500-character name to 40 characters", () => {
    expect(wallName("A".repeat(500), "B")).toBe(`${"A".repeat(40)} B.`);
  });

  it("reads Anonymous when no name is left", () => {
    expect(wallName(null, null)).toBe(ANONYMOUS);
    expect(wallName(" \u200b ", "")).toBe(ANONYMOUS);
  });
});
