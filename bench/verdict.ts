/**
 * The bench's verdict: every figure beside its target and its guard (bench/baseline.json).
 * A missed target is marked and reported; only a figure past its guard, a regression, fails.
 *
 * @example
 * const verdict = judge({ throughput_ratio: 0.3 }, baseline);
 * for (const line of verdict.lines) console.log(line);
 * process.exitCode = verdict.regressed ? 1 : 0;
 */
export interface FigureSpec {
  label: string;
  unit: string;
  better: "higher" | "lower";
  baseline: number;
  /** What givekit aims for; null: none set. */
  target: number | null;
  /**
   * Past this the run fails; null: printed, never fatal (a figure the machine's load moves),
   * unless `drift` sets the guard from the baseline.
   */
  guard: number | null;
  /**
   * For a figure the run measures against itself (a ratio): how far past its baseline it may
   * move, as a fraction (0.25: a quarter worse), before the run fails. Its guard is then the
   * baseline moved so, and follows each re-measured baseline; `guard` must be null.
   */
  drift?: number;
}

export interface Baseline {
  measured_on: string;
  figures: Record<string, FigureSpec>;
}

export interface Verdict {
  lines: string[];
  /** Figures past their guard, or not measured although guarded. */
  regressions: string[];
  /** Figures that miss their target while holding their guard. */
  missed: string[];
  regressed: boolean;
}

const MARKS = { regressed: "✗ REGRESSED", missed: "✗ missed", met: "✓ met", measured: "· measured" };

/** The figure's guard: its own, or its baseline moved by its drift in the worse direction. */
export function guardOf(spec: FigureSpec): number | null {
  if (spec.drift === undefined) return spec.guard;
  const moved =
    spec.better === "higher" ? spec.baseline * (1 - spec.drift) : spec.baseline * (1 + spec.drift);
  // Rounded as the verdict prints it, so the printed guard is the one applied.
  return Number(moved.toFixed(Math.abs(moved) < 10 ? 2 : 0));
}

const holds = (value: number, limit: number | null, better: FigureSpec["better"]) =>
  limit === null || (better === "higher" ? value >= limit : value <= limit);

function show(value: number, unit: string): string {
  const digits = Math.abs(value) < 10 && !Number.isInteger(value) ? 2 : 0;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ""}`;
}

/** Judges measured figures against the baseline's targets and guards. */
export function judge(measured: Record<string, number>, baseline: Baseline): Verdict {
  const lines: string[] = [];
  const regressions: string[] = [];
  const missed: string[] = [];
  const specs = Object.entries(baseline.figures);
  const width = Math.max(...specs.map(([, spec]) => spec.label.length));
  for (const [name, spec] of specs) {
    const value = measured[name];
    const guard = guardOf(spec);
    const sign = spec.better === "higher" ? "≥" : "≤";
    const limit = (word: string, bound: number | null) =>
      bound === null ? `no ${word}` : `${word} ${sign} ${show(bound, spec.unit)}`;
    const measuredOk = value !== undefined && !Number.isNaN(value);
    let mark: keyof typeof MARKS;
    if (!measuredOk) mark = guard === null ? "measured" : "regressed";
    else if (!holds(value, guard, spec.better)) mark = "regressed";
    else if (spec.target === null) mark = "measured";
    else mark = holds(value, spec.target, spec.better) ? "met" : "missed";
    if (mark === "regressed") regressions.push(name);
    if (mark === "missed") missed.push(name);
    const shown = measuredOk ? show(value, spec.unit) : "not measured";
    lines.push(
      `  ${MARKS[mark].padEnd(11)}  ${spec.label.padEnd(width)}  ${shown.padStart(12)}` +
        `   ${limit("target", spec.target)}, ${limit("guard", guard)}${spec.drift === undefined ? "" : ` (${Math.round(spec.drift * 100)} % past the baseline)`}, baseline ${show(spec.baseline, spec.unit)}`,
    );
  }
  return { lines, regressions, missed, regressed: regressions.length > 0 };
}
