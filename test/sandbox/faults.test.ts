// Fault triggers (by amount) and the latency setting.
import { afterEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../helpers/sandbox";
import { collected, donate, donation, login, useSandbox } from "./support";

describe("fault triggers", () => {
  const ctx = useSandbox();

  it("666.66 → HTTP 500 with no donation object, nothing charged", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ amount: "666.66" }));
    expect(answer.status).toBe(500);
    expect(answer.json.error.code).toBe("fault_server_error");
    expect(answer.json.donation).toBeUndefined();
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("888.88 → the connection is closed with no answer, nothing charged", async () => {
    const session = await login(ctx.sandbox);
    await expect(donate(ctx.sandbox, session, donation({ amount: "888.88" }))).rejects.toThrow(
      /socket hang up|ECONNRESET/,
    );
    expect(await ctx.sandbox.transactions()).toEqual([]);
    // The sandbox itself carries on.
    expect((await donate(ctx.sandbox, session, donation({ amount: "1.00" }))).json.donation.status).toBe(
      "Success",
    );
  });

  it("a fault amount on an otherwise invalid request is refused as invalid first (400), nothing charged", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(
      ctx.sandbox,
      session,
      donation({ amount: "888.88", peer_fundraiser_id: "999" }),
    );
    expect(answer.status).toBe(400);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("the fee does not hide a fault: 666.66 with fee_rate is still the fault", async () => {
    const session = await login(ctx.sandbox);
    const answer = await donate(ctx.sandbox, session, donation({ amount: "666.66", fee_rate: 0.03 }));
    expect(answer.status).toBe(500);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });
});

describe("fault trigger 777.77", () => {
  let sandbox: SandboxHandle | undefined;
  afterEach(async () => {
    await sandbox?.close();
  });

  it("777.77 → the charge is recorded, then the sandbox never answers; close() still completes", async () => {
    sandbox = await startSandbox();
    const session = await login(sandbox);
    const started = Date.now();
    await expect(donate(sandbox, session, donation({ amount: "777.77" }), 800)).rejects.toThrow(
      "client timeout",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);

    const rows = await collected(sandbox);
    expect(rows.map((row) => [row.amount, row.status])).toEqual([["777.77", "collected"]]);

    // A second hung request is still open when the sandbox closes.
    const pending = donate(sandbox, session, donation({ amount: "777.77" })).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = Date.now();
    await sandbox.close();
    expect(Date.now() - closing).toBeLessThan(2_000);
    expect(await pending).toBeInstanceOf(Error);
    sandbox = undefined;
  });
});

describe("fault trigger 999.99", () => {
  let sandbox: SandboxHandle | undefined;
  afterEach(async () => {
    await sandbox?.close();
  });

  it("999.99 → the sandbox never answers and charges nothing; the next donation is charged as usual", async () => {
    sandbox = await startSandbox();
    const session = await login(sandbox);
    const started = Date.now();
    await expect(donate(sandbox, session, donation({ amount: "999.99" }), 800)).rejects.toThrow(
      "client timeout",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    expect(await sandbox.transactions()).toEqual([]);

    expect((await donate(sandbox, session, donation({ amount: "2.00" }))).json.donation.status).toBe(
      "Success",
    );
    expect((await collected(sandbox)).map((row) => row.amount)).toEqual(["2.00"]);
  });
});

describe("SANDBOX_LATENCY_MS", () => {
  const ctx = useSandbox({ latencyMs: 300 });

  it("adds the configured delay to every answer", async () => {
    let started = Date.now();
    const session = await login(ctx.sandbox);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    started = Date.now();
    const answer = await donate(ctx.sandbox, session, donation());
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(answer.json.donation.status).toBe("Success");

    started = Date.now();
    const refused = await donate(ctx.sandbox, session, donation({ amount: "0" }));
    expect(refused.status).toBe(400);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
  });
});
