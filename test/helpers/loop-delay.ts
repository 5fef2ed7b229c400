/**
 * A proxy program's own event-loop delay, read from its GET /metrics: prom-client's
 * nodejs_eventloop_lag_* gauges (perf_hooks.monitorEventLoopDelay) start again at each scrape,
 * so one scrape before a job and one after it give the delay during the job. For the tests and
 * the bench that run the proxy as a program of its own (GIVEKIT_METRICS_TOKEN set to METRICS_TOKEN).
 *
 * @example
 * await loopDelay(proxy.url);                 // starts the count again
 * await job();
 * const { p99, max } = await loopDelay(proxy.url); // ms, during the job
 */

/** The Bearer token the programs are started with (GIVEKIT_METRICS_TOKEN). */
export const METRICS_TOKEN = "loop-delay-metrics-token-0123456789";

/** The event loop's delay since the last scrape, p99 and max, in ms. */
export async function loopDelay(url: string): Promise<{ p99: number; max: number }> {
  const reply = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await reply.text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]) * 1000;
  return { p99: gauge("nodejs_eventloop_lag_p99_seconds"), max: gauge("nodejs_eventloop_lag_max_seconds") };
}

/** GET /v1/health one after another until stopped, each one timed (ms), and how many failed. */
export function probeHealth(url: string): {
  stop(): Promise<{ times: number[]; failures: number; max: number }>;
} {
  const times: number[] = [];
  const state = { running: true, failures: 0 };
  const done = (async () => {
    while (state.running) {
      const started = performance.now();
      try {
        const reply = await fetch(`${url}/v1/health`);
        await reply.arrayBuffer();
        if (reply.status !== 200) state.failures++;
      } catch {
        state.failures++;
      }
      times.push(performance.now() - started);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await done;
      return { times, failures: state.failures, max: Math.max(0, ...times) };
    },
  };
}
