/**
 * The progress reads' thread (started by progress-reader.ts): each read's answer arrives here as
 * bytes, is cut into rows (json-rows.ts), checked and summed (progress-tally.ts), and only the
 * sums go back. Finding the rows, JSON.parse, the contract's checks and the donor hashes were the
 * main thread's largest costs at a million gifts, and the garbage they left its longest pauses.
 */
import { parentPort } from "node:worker_threads";
import { JsonRowsError, readJsonRows, type JsonRows } from "../upstream/json-rows";
import { createReportTally } from "./progress-tally";
import type { FromReader, ToReader } from "./progress-reader";

interface Job {
  rows: JsonRows;
  tally: ReturnType<typeof createReportTally>;
}

const port = parentPort!;
const jobs = new Map<number, Job>();
const send = (message: FromReader, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);
/** Why a read failed, as http.ts words a call's failure. */
const reason = (error: unknown) =>
  error instanceof JsonRowsError
    ? `malformed answer: ${error.message}`
    : `the progress reading thread: ${error instanceof Error ? error.message : String(error)}`;

port.on("message", (message: ToReader) => {
  const { id } = message;
  if (message.type === "open") {
    const tally = createReportTally(message.spec);
    const rows = readJsonRows({ path: message.path, onRow: tally.add, maxRowBytes: message.maxRowBytes });
    jobs.set(id, { rows, tally });
    return;
  }
  const job = jobs.get(id);
  if (!job) return;
  try {
    if (message.type === "bytes") {
      job.rows.write(message.bytes);
      send({ type: "read", id, bytes: message.bytes.byteLength });
    } else if (message.type === "end") {
      jobs.delete(id);
      const envelope = job.rows.end();
      const sums = job.tally.sums();
      send({ type: "done", id, envelope, sums }, [
        sums.donorsBefore.bytes.buffer as ArrayBuffer,
        sums.donorsOnlyFrom.bytes.buffer as ArrayBuffer,
      ]);
    } else {
      jobs.delete(id);
    }
  } catch (error) {
    jobs.delete(id);
    send({ type: "failed", id, reason: reason(error) });
  }
});
