// What the form tells its card frame of its steps (step-news.ts), which the frame counts
// (widget/frame/form-events.ts): the width and channel with its look, the steps passed, why a
// gift was refused. Never a name, an e-mail or a card.
import { fireEvent, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import {
  fillDonor,
  nextStep,
  problem,
  reach,
  renderDonate,
  stubProxy,
  useFakeCardFrame,
} from "../../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

/** The messages the frame was sent, of `type`, without their type. */
const told = (type: string) =>
  frame()
    .posted.map((entry) => entry.message as Record<string, unknown>)
    .filter((message) => message.type === type)
    .map((message) => {
      const rest = { ...message };
      delete rest.type;
      return rest;
    });

describe("the form's steps, told to its card frame", () => {
  it("gives the width and the page's utm_source with its look, then each step passed and the field refused", async () => {
    history.replaceState(null, "", "/?utm_source=newsletter");
    stubProxy();
    const { widget } = await renderDonate({ layout: "steps" });
    await waitFor(() =>
      expect(told("givekit:theme")).toContainEqual(
        expect.objectContaining({ width: innerWidth, channel: "newsletter" }),
      ),
    );
    await nextStep(widget);
    await waitFor(() => expect(told("givekit:step")).toEqual([{ step: "amount" }]));
    // Next with the donor's fields empty: refused, the first field named.
    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    await waitFor(() =>
      expect(told("givekit:step")).toEqual([
        { step: "amount" },
        { code: "validation_failed", field: "firstName" },
      ]),
    );
  });

  it("the element's channel tag wins over utm_source; a declined gift is told by its code, and nothing personal is", async () => {
    history.replaceState(null, "", "/?utm_source=newsletter");
    stubProxy({ donations: [problem(402, "card_declined")] });
    const { widget } = await renderDonate({ layout: "steps", source: "spring-gala", fields: "" });
    await waitFor(() =>
      expect(told("givekit:theme")).toContainEqual(expect.objectContaining({ channel: "spring-gala" })),
    );
    await nextStep(widget);
    fillDonor(widget, frame());
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await waitFor(() =>
      expect(told("givekit:step")).toEqual([
        { step: "amount" },
        { step: "details" },
        { code: "card_declined" },
      ]),
    );
    const everything = JSON.stringify([...told("givekit:step"), ...told("givekit:theme")]);
    for (const personal of ["Ada", "Lovelace", "ada@example.org"]) expect(everything).not.toContain(personal);
  });
});
