import { cleanup, fireEvent } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { DedicationSchema } from "../../../contract/api";
import {
  DEDICATION_NAME_MAX,
  memoFits,
  memoWithDedication,
  readDedication,
  UPSTREAM_MEMO_MAX,
} from "../../../contract/dedication";
import { codePoints } from "../../../contract/patterns";
import { createDedicationModel } from "./dedication-model";
import {
  fillDonor,
  problem,
  reach,
  renderDonate,
  stubProxy,
  success,
  useFakeCardFrame,
} from "../../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

describe('a dedication (fields="dedication")', () => {
  it("off unless turned on; ticked, it asks honor or memory, a name, an optional e-mail", async () => {
    stubProxy();
    const plain = await renderDonate({ fields: "memo", layout: "single" });
    expect(plain.widget.queryByRole("checkbox", { name: "Dedicate my gift to someone" })).toBeNull();
    cleanup();
    const { widget } = await renderDonate({ fields: "dedication", layout: "single" });
    expect(widget.queryByLabelText("Their name")).toBeNull();
    fireEvent.click(widget.getByRole("checkbox", { name: "Dedicate my gift to someone" }));
    expect(await widget.findByRole("radio", { name: "In honor of" })).toHaveProperty("checked", true);
    expect(widget.getByRole("radio", { name: "In memory of" })).toBeTruthy();
    expect(widget.getByLabelText("Their name")).toBeTruthy();
    expect(widget.getByLabelText(/E-mail someone about my gift/)).toBeTruthy();
  });

  it("is sent beside the donor's message and repeated in the thanks", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate({ fields: "memo,dedication", layout: "single" });
    fillDonor(widget, frame());
    fireEvent.input(widget.getByLabelText(/^Message/), { target: { value: "For the winter beds" } });
    fireEvent.click(widget.getByRole("checkbox", { name: "Dedicate my gift to someone" }));
    fireEvent.click(await widget.findByRole("radio", { name: "In memory of" }));
    fireEvent.input(widget.getByLabelText("Their name"), { target: { value: " Jane Doe " } });
    fireEvent.input(widget.getByLabelText(/E-mail someone about my gift/), {
      target: { value: "jane@example.org" },
    });
    fireEvent.click(await reach(widget, /^Donate /));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(widget.getByText("In memory of Jane Doe.")).toBeTruthy();
    const body = proxy.donationCalls()[0]!.body as Record<string, unknown>;
    expect(body.memo).toBe("For the winter beds");
    expect(body.dedication).toEqual({ kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" });
  });

  it("unticked after typing: nothing of it is sent", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate({ fields: "dedication", layout: "single" });
    fillDonor(widget, frame());
    const box = widget.getByRole("checkbox", { name: "Dedicate my gift to someone" });
    fireEvent.click(box);
    fireEvent.input(await widget.findByLabelText("Their name"), { target: { value: "Jane Doe" } });
    fireEvent.click(box);
    fireEvent.click(await reach(widget, /^Donate /));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect((proxy.donationCalls()[0]!.body as Record<string, unknown>).dedication).toBeUndefined();
    expect(widget.queryByText(/In honor of/)).toBeNull();
  });

  it("bad input: no name, a name with < >, a bad e-mail are field errors, and nothing is sent", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "dedication", layout: "single" });
    fillDonor(widget, frame());
    fireEvent.click(widget.getByRole("checkbox", { name: "Dedicate my gift to someone" }));
    const donate = await reach(widget, /^Donate /);
    fireEvent.click(donate);
    expect(
      await widget.findByText("Enter the name of the person your gift honors or remembers."),
    ).toBeTruthy();
    fireEvent.input(widget.getByLabelText("Their name"), { target: { value: "<b>Jane</b>" } });
    fireEvent.input(widget.getByLabelText(/E-mail someone about my gift/), { target: { value: "jane@" } });
    fireEvent.click(donate);
    expect(await widget.findByText("Enter a name of at most 100 characters, without < or >.")).toBeTruthy();
    expect(widget.getByLabelText(/E-mail someone about my gift/).getAttribute("aria-invalid")).toBe("true");
    expect(proxy.donationCalls()).toHaveLength(0);
  });

  it("the proxy's refusal of the dedication lands on its field", async () => {
    stubProxy({
      donations: [problem(400, "validation_failed", { "dedication.name": ["Too long together."] })],
    });
    const { widget } = await renderDonate({ fields: "dedication", layout: "single" });
    fillDonor(widget, frame());
    fireEvent.click(widget.getByRole("checkbox", { name: "Dedicate my gift to someone" }));
    fireEvent.input(await widget.findByLabelText("Their name"), { target: { value: "Jane Doe" } });
    fireEvent.click(await reach(widget, /^Donate /));
    await vi.waitFor(() =>
      expect(widget.getByLabelText("Their name").getAttribute("aria-invalid")).toBe("true"),
    );
  });
});

describe("contract/dedication.ts: the memo's form", () => {
  it("one last line, read back as written", () => {
    const dedication = { kind: "memory" as const, name: "Jane Doe", notify_email: "jane@example.org" };
    const memo = memoWithDedication("For the winter beds\nand blankets", dedication)!;
    expect(memo).toBe(
      "For the winter beds\nand blankets\n[Dedication] In memory of Jane Doe <jane@example.org>",
    );
    expect(readDedication(memo)).toEqual({ message: "For the winter beds\nand blankets", dedication });
    expect(readDedication(memoWithDedication(undefined, { kind: "honor", name: "Ana" })!)).toEqual({
      message: "",
      dedication: { kind: "honor", name: "Ana" },
    });
    expect(readDedication("Just a note")).toEqual({ message: "Just a note", dedication: null });
    expect(memoWithDedication("  ", undefined)).toBeUndefined();
  });

  it("lengths are counted as the proxy's schema counts them, in code points: an emoji is one", () => {
    const dedication = createDedicationModel();
    dedication.on.value = true;
    dedication.name.value = "🌻".repeat(DEDICATION_NAME_MAX);
    expect(dedication.problems(undefined)).toEqual({});
    expect(DedicationSchema.safeParse(dedication.request().dedication).success).toBe(true);
    dedication.name.value = "🌻".repeat(DEDICATION_NAME_MAX + 1);
    expect(dedication.problems(undefined)).toEqual({ dedicationName: "invalid" });
    expect(DedicationSchema.safeParse(dedication.request().dedication).success).toBe(false);
    const ana = { kind: "honor" as const, name: "Ana" };
    const room = UPSTREAM_MEMO_MAX - codePoints(memoWithDedication("", ana)!) - 1;
    expect(memoFits("🌻".repeat(room), ana)).toBe(true);
    expect(memoFits("🌻".repeat(room + 1), ana)).toBe(false);
  });
});
