import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "../shared/api-client";
import { createOptinModel, formatAsYouType } from "./OptinModel";
import { stubFetch, subscribed } from "./test-helpers";

const context = {
  api: createApiClient("https://proxy.example.org"),
  target: { list: "Hope Alerts" },
  consentText: "By subscribing, you agree to receive recurring automated text messages.",
  consentLocale: "en" as const,
};

function filledModel(mobile: string) {
  const model = createOptinModel();
  model.setMobile(mobile);
  model.setFirstName("Ada");
  model.setLastName("Lovelace");
  model.setConsent(true);
  return model;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("OptinModel", () => {
  it("formats a US number as it is typed", () => {
    expect(formatAsYouType("555")).toBe("(555)");
    expect(formatAsYouType("5550101")).toBe("(555) 010-1");
    expect(formatAsYouType("5550101234")).toBe("(555) 010-1234");
  });

  it("leaves text that is not a number in the making as typed", () => {
    expect(formatAsYouType("call me")).toBe("call me");
  });

  it.each([
    ["+1 (555) 010-1234", "5550101234"],
    ["15550101234", "5550101234"],
    ["555.010.1234", "5550101234"],
  ])("accepts the pasted number %s and sends it as %s", async (pasted, digits) => {
    const { calls } = stubFetch(subscribed(digits));
    const model = filledModel(pasted);
    expect(await model.submit(context)).toEqual({ kind: "success" });
    expect(calls[0]!.body.mobilenumber).toBe(digits);
    expect(model.status.value).toEqual({ kind: "success", number: "(555) 010-1234" });
  });

  it.each(["555010123", "555010123456", "5550101234567"])(
    "refuses %s without sending anything",
    async (number) => {
      const { fetchStub } = stubFetch();
      const model = filledModel(number);
      expect(await model.submit(context)).toEqual({ kind: "invalid", fields: ["mobile"] });
      expect(model.errors.value.mobile).toBe("invalid");
      expect(fetchStub).not.toHaveBeenCalled();
    },
  );

  it("refuses an unticked consent without sending anything", async () => {
    const { fetchStub } = stubFetch();
    const model = filledModel("5550101234");
    model.setConsent(false);
    expect(await model.submit(context)).toEqual({ kind: "invalid", fields: ["consent"] });
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("clears a field's error once its value is acceptable", async () => {
    stubFetch();
    const model = createOptinModel();
    await model.submit(context);
    expect(model.errorFields.value).toEqual(["mobile", "firstName", "lastName", "consent"]);
    model.setMobile("5550101234");
    model.setConsent(true);
    expect(model.errorFields.value).toEqual(["firstName", "lastName"]);
  });
});
