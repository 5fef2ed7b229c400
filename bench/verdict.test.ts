import { describe, expect, it } from "vitest";
import { judge, type Baseline } from "./verdict";
import recorded from "./baseline.json";

const baseline: Baseline = {
  measured_on: "test",
  figures: {
    ratio: { label: "ratio", unit: "", better: "higher", baseline: 0.31, target: 0.75, guard: 0.2 },
    p99: { label: "p99 extra", unit: "ms", better: "lower", baseline: 4, target: 5, guard: 15 },
  },
};

describe("the bench's verdict", () => {
  it("a figure that meets its target is marked met, and the run passes", () => {
    const verdict = judge({ ratio: 0.8, p99: 3 }, baseline);
    expect(verdict.regressed).toBe(false);
    expect(verdict.missed).toEqual([]);
    expect(verdict.lines[0]).toMatch(/✓ met .*ratio .*0\.80 .*target ≥ 0\.75, guard ≥ 0\.20/);
  });

  it("a known gap (target missed, guard held) is marked missed, and the run still passes", () => {
    const verdict = judge({ ratio: 0.3, p99: 7 }, baseline);
    expect(verdict.regressed).toBe(false);
    expect(verdict.missed).toEqual(["ratio", "p99"]);
    expect(verdict.lines.join("\n")).toMatch(/✗ missed .*p99 extra .*7 ms/);
  });

  it("a figure past its guard, in either direction of better, fails the run", () => {
    expect(judge({ ratio: 0.19, p99: 3 }, baseline).regressions).toEqual(["ratio"]);
    expect(judge({ ratio: 0.5, p99: 16 }, baseline).regressions).toEqual(["p99"]);
    expect(judge({ ratio: 0.19, p99: 16 }, baseline).regressed).toBe(true);
  });

  it("a figure the run did not measure is a regression, not a pass", () => {
    const verdict = judge({ ratio: 0.5 }, baseline);
    expect(verdict.regressions).toEqual(["p99"]);
    expect(verdict.lines[1]).toMatch(/REGRESSED .*not measured/);
  });

  it("the recorded baseline's own figures pass their guards", () => {
    const figures = (recorded as Baseline).figures;
    const atBaseline = Object.fromEntries(
      Object.entries(figures).map(([name, spec]) => [name, spec.baseline]),
    );
    expect(judge(atBaseline, recorded as Baseline).regressed).toBe(false);
  });
});

describe("ratios guarded by their drift from the baseline", () => {
  const drifting: Baseline = {
    measured_on: "test",
    figures: {
      cpu: {
        label: "cpu ratio",
        unit: "×",
        better: "lower",
        baseline: 2,
        target: 1.33,
        guard: null,
        drift: 0.25,
      },
      speed: {
        label: "throughput ratio",
        unit: "",
        better: "higher",
        baseline: 0.4,
        target: 0.75,
        guard: null,
        drift: 0.25,
      },
    },
  };

  it("hold within a quarter of their baseline, and say where the guard is", () => {
    const verdict = judge({ cpu: 2.5, speed: 0.3 }, drifting);
    expect(verdict.regressed).toBe(false);
    expect(verdict.lines[0]).toMatch(/guard ≤ 2\.50 × \(25 % past the baseline\), baseline 2 ×/);
    expect(verdict.lines[1]).toMatch(/guard ≥ 0\.30 \(25 % past the baseline\)/);
  });

  it("fail the run once they move more than a quarter past it, either way of better", () => {
    expect(judge({ cpu: 2.51, speed: 0.4 }, drifting).regressions).toEqual(["cpu"]);
    expect(judge({ cpu: 2, speed: 0.29 }, drifting).regressions).toEqual(["speed"]);
  });

  it("the recorded baseline guards every ratio it measures against the forwarder so", () => {
    const figures = (recorded as Baseline).figures;
    for (const name of ["throughput_ratio", "cpu_ratio_subscribe"]) {
      expect(figures[name]?.drift, name).toBe(0.25);
      expect(figures[name]?.guard, name).toBeNull();
    }
  });
});

describe("figures without a guard or a target", () => {
  const loose: Baseline = {
    measured_on: "test",
    figures: {
      speed: {
        label: "donations/s",
        unit: "/s",
        better: "higher",
        baseline: 1400,
        target: null,
        guard: null,
      },
      extra: { label: "p99 extra", unit: "ms", better: "lower", baseline: 4, target: 5, guard: null },
    },
  };

  it("are printed and never fail the run, however far they move", () => {
    const verdict = judge({ speed: 3, extra: 80 }, loose);
    expect(verdict.regressed).toBe(false);
    expect(verdict.missed).toEqual(["extra"]);
    expect(verdict.lines[0]).toMatch(
      /· measured .*donations\/s .*3 \/s .*no target, no guard, baseline 1400 \/s/,
    );
  });
});
