/** The screens for the room (wall and display) as the browser tests feed them. */
import { expect } from "./fixtures";

/** A gift texted to the demo campaign in the sandbox, shown on the pledge wall unless `gift` says not. */
export async function textGift(sandboxUrl: string, gift: Record<string, unknown>) {
  const response = await fetch(`${sandboxUrl}/_sandbox/text-gifts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      shortcode: "71777",
      keyword: "HOPE",
      phone: "2025550143",
      pledge_wall: true,
      ...gift,
    }),
  });
  expect(response.status).toBe(201);
}
