import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../contract/errors";
import { PROBLEM_KINDS } from "./problem";

describe("the proxy's problems are the contract's error codes, exactly", () => {
  it("every code the contract lists has a status and title, and no other", () => {
    expect(Object.keys(PROBLEM_KINDS).toSorted()).toEqual(ERROR_CODES.toSorted());
  });

  it("no title speaks of what only a browser can know", () => {
    expect(Object.keys(PROBLEM_KINDS)).not.toContain("network_error");
  });
});
