import { fireEvent } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { useFakeCardFrame, renderDonate, stubProxy } from "../../../test/helpers/donate-harness";

useFakeCardFrame();

describe("amounts that say what they do", () => {
  it("a preset's description is part of its accessible name; a monthly gift shows the monthly presets", async () => {
    stubProxy();
    const { widget } = await renderDonate({
      fields: "",
      amounts: "25:A week of meals,50:Two weeks of meals,100",
      "monthly-amounts": "10:A meal a day,20",
    });
    expect(widget.getByRole("radio", { name: "$25 A week of meals" })).toHaveProperty("checked", true);
    expect(widget.getByRole("radio", { name: "$100" })).toBeTruthy();
    fireEvent.click(widget.getByRole("radio", { name: "$50 Two weeks of meals" }));
    fireEvent.click(widget.getByRole("radio", { name: "Monthly" }));
    // The one-time presets give way to the monthly ones; the second stays chosen.
    expect(widget.queryByRole("radio", { name: /^\$25/ })).toBeNull();
    expect(widget.getByRole("radio", { name: "$20" })).toHaveProperty("checked", true);
    expect(widget.getByRole("radio", { name: "$10 A meal a day" })).toBeTruthy();
    expect(widget.getByRole("button", { name: "Next" })).toBeTruthy();
  });
});
