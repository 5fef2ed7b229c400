import { signal, type Signal } from "@preact/signals-core";
import { act, cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { reactive } from "./reactive";

afterEach(cleanup);

/** The test's state, made outside any component, as a model would be. */
const state = <T extends Record<string, unknown>>(values: T) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, signal(value)])) as {
    [K in keyof T]: Signal<T[K]>;
  };

describe("reactive components", () => {
  it("render again when a signal they read changes, and only then", () => {
    const { count, unrelated } = state({ count: 1, unrelated: "a" });
    let renders = 0;
    const Count = reactive(({ label }: { label: string }) => {
      renders += 1;
      return (
        <p>
          {label} {count.value}
        </p>
      );
    });
    render(<Count label="Count" />);
    expect(screen.getByText("Count 1")).toBeTruthy();

    act(() => {
      count.value = 2;
    });
    expect(screen.getByText("Count 2")).toBeTruthy();
    act(() => {
      unrelated.value = "b";
    });
    expect(renders).toBe(2);
  });

  it("follow the signals of their latest render only, and none once removed", () => {
    const { showB, a, b } = state({ showB: false, a: "a1", b: "b1" });
    let renders = 0;
    const Pick = reactive(() => {
      renders += 1;
      return <p>{showB.value ? b.value : a.value}</p>;
    });
    const view = render(<Pick />);
    act(() => {
      showB.value = true;
    });
    expect(screen.getByText("b1")).toBeTruthy();
    act(() => {
      a.value = "a2";
    });
    expect(renders).toBe(2);

    view.unmount();
    act(() => {
      b.value = "b2";
    });
    expect(renders).toBe(2);
  });
});
