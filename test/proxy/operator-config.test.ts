// The operator's settings of issue 31: GIVEKIT_TRUST_PROXY by address (its old hop counts kept
// or refused naming the new form), the stop delay, the start wait and the demo set-up override.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../proxy/config";

const REQUIRED = {
  UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
  UPSTREAM_PRIVATE_TOKEN: "private-token-for-config-tests",
  UPSTREAM_PUBLIC_TOKEN: "public-token-for-config-tests",
};

const load = (env: Record<string, string>) => loadConfig({ ...REQUIRED, ...env });

function refusal(env: Record<string, string>): string {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("not refused");
}

describe("GIVEKIT_TRUST_PROXY", () => {
  it("unset: loopback when the proxy listens on loopback, nobody otherwise", () => {
    expect(load({}).trustProxy).toEqual({ addresses: ["loopback"], explicit: false });
    expect(load({ HOST: "::1" }).trustProxy).toEqual({ addresses: ["loopback"], explicit: false });
    expect(load({ HOST: "0.0.0.0" }).trustProxy).toEqual({ addresses: [], explicit: false });
  });

  it("names addresses, ranges and proxy-addr's names; none and false trust nobody", () => {
    expect(load({ GIVEKIT_TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8,192.168.1.7" }).trustProxy).toEqual({
      addresses: ["loopback", "10.0.0.0/8", "fd00::/8", "192.168.1.7"],
      explicit: true,
    });
    for (const none of ["none", "false", "0", "NONE"])
      expect(load({ GIVEKIT_TRUST_PROXY: none }).trustProxy).toEqual({ addresses: [], explicit: true });
  });

  it("the old true and 1 mean loopback, with a deprecation line; more hops are refused naming the new form", () => {
    for (const old of ["true", "1"]) {
      const config = load({ GIVEKIT_TRUST_PROXY: old, HOST: "0.0.0.0" });
      expect(config.trustProxy).toEqual({ addresses: ["loopback"], explicit: true });
      expect(config.deprecations).toEqual([
        expect.stringMatching(
          /^GIVEKIT_TRUST_PROXY=true \(or 1, a hop count\) is now GIVEKIT_TRUST_PROXY=loopback/,
        ),
      ]);
    }
    expect(refusal({ GIVEKIT_TRUST_PROXY: "2" })).toMatch(
      /^GIVEKIT_TRUST_PROXY: a number of hops \(2\) no longer says whom to trust: name the reverse proxies by address or range, e\.g\. GIVEKIT_TRUST_PROXY=loopback/,
    );
  });

  it.each(["yes", "10.0.0.0/99", "nginx.internal", "1.2.3.4; drop", "0.0.0.0/0"])(
    "refuses %j, naming the variable and the form",
    (value) => {
      expect(refusal({ GIVEKIT_TRUST_PROXY: value })).toMatch(
        /^GIVEKIT_TRUST_PROXY: .*name the reverse proxies by address or range/,
      );
    },
  );
});

describe("the stop delay, the start wait and the demo set-up override", () => {
  it("defaults: no delay on loopback, 5 s elsewhere; 60 s of waiting for the database; no override", () => {
    expect(load({}).stopDelayMs).toBe(0);
    expect(load({ HOST: "0.0.0.0" }).stopDelayMs).toBe(5000);
    expect(load({ GIVEKIT_STOP_DELAY_S: "12" }).stopDelayMs).toBe(12_000);
    expect(load({}).storeStartWaitS).toBe(60);
    expect(load({}).keepAliveMs).toBe(65_000);
    expect(load({}).allowDemoSetup).toBe(false);
    expect(load({ GIVEKIT_ALLOW_DEMO_SETUP: "true" }).allowDemoSetup).toBe(true);
  });

  it.each([
    ["GIVEKIT_STOP_DELAY_S", "soon"],
    ["GIVEKIT_STOP_DELAY_S", "-1"],
    ["GIVEKIT_STORE_START_WAIT_S", "7200"],
    ["GIVEKIT_KEEP_ALIVE_S", "0"],
    ["GIVEKIT_ALLOW_DEMO_SETUP", "yes"],
  ])("%s=%j is refused, naming it", (variable, value) => {
    expect(refusal({ [variable]: value })).toMatch(new RegExp(`^${variable}: `));
  });
});
