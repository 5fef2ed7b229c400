import { act, cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazy, lazyModule } from "./lazy";

afterEach(cleanup);

/** A chunk the test lets arrive (or fail) when it chooses, counting how often it is asked for. */
function chunk() {
  const module = { Greeting: ({ name }: { name: string }) => <p>Hello {name}</p> };
  const asks: { resolve: (value: typeof module) => void; reject: (error: Error) => void }[] = [];
  const load = vi.fn<() => Promise<typeof module>>(
    () =>
      new Promise<typeof module>((resolve, reject) => {
        asks.push({ resolve, reject });
      }),
  );
  return {
    module,
    load,
    arrive: () => asks.at(-1)!.resolve(module),
    fail: () => asks.at(-1)!.reject(new Error("offline")),
  };
}

describe("lazy(): a part of the form whose code comes in a chunk of its own", () => {
  it("fetches its chunk at its first render, shows nothing until it comes, then the part with its props", async () => {
    const { load, arrive } = chunk();
    const Greeting = lazy(lazyModule(load), "Greeting");
    render(<Greeting name="Ana" />);
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.queryByText("Hello Ana")).toBeNull();

    await act(async () => arrive());
    expect(screen.getByText("Hello Ana")).toBeTruthy();
  });

  it("shows at once when its chunk was preloaded, and fetches it only once", async () => {
    const { load, arrive } = chunk();
    const greetings = lazyModule(load);
    const Greeting = lazy(greetings, "Greeting");
    const preloaded = greetings.preload();
    arrive();
    await preloaded;
    render(<Greeting name="Dev" />);
    expect(screen.getByText("Hello Dev")).toBeTruthy();
    await greetings.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("after a failed fetch, asks again at the next need, and shows the part once it comes", async () => {
    const { load, arrive, fail } = chunk();
    const greetings = lazyModule(load);
    const Greeting = lazy(greetings, "Greeting");
    const first = greetings.preload();
    fail();
    await expect(first).rejects.toThrow("offline");

    render(<Greeting name="Li" />);
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByText("Hello Li")).toBeNull();
    await act(async () => arrive());
    expect(screen.getByText("Hello Li")).toBeTruthy();
  });
});
