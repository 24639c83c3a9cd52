import { spawn } from "node:child_process";
import { clientPool, closedLoop, exchange, openLoop } from "./load.js";
import { procCpuMs } from "./service.js";
import { round } from "./stats.js";

export const PACED_RATE = 200;
const PACED_MS = 5_000;

// The least a Node HTTP server can do per request: no framework, no database, a fixed JSON answer.
const BARE_SERVER = `require("node:http")
  .createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end('{"ok":true}');
  })
  .listen(0, "127.0.0.1", function () {
    process.stdout.write(this.address().port + "\\n");
  });`;

/**
 * The CPU a bare `node:http` server is charged per request, when requests arrive paced (200/s, as in the
 * open loop) and when they come back to back (as in the throughput scenario). The same service on VMs of
 * one size has differed 2.5× in CPU per verification while the reference work (one core's speed) did not
 * tell them apart: what differs is what waking an idle process costs, which a paced request pays each time
 * and a saturated server spreads over many. Linux only (/proc); null elsewhere.
 */
export async function bareServerCpuMs(): Promise<{ paced: number; saturated: number } | null> {
  const server = spawn(process.execPath, ["-e", BARE_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
      server.once("exit", () => reject(new Error("the bare server exited before listening")));
    });
    const pid = server.pid;
    if (pid === undefined || procCpuMs(pid) === null) return null;
    const pool = clientPool(`http://127.0.0.1:${port}`, 100);
    try {
      const cpuPerRequest = async (run: () => Promise<number>) => {
        const before = procCpuMs(pid) ?? 0;
        const requests = await run();
        return round(((procCpuMs(pid) ?? 0) - before) / requests, 3);
      };
      const ask = () => exchange(pool, "/");
      // The JIT warmed and the connections open before anything is counted.
      await closedLoop({ concurrency: 50, count: 5_000, maxMs: 10_000 }, ask);
      const paced = await cpuPerRequest(async () => (await openLoop(PACED_RATE, PACED_MS, ask)).length);
      const saturated = await cpuPerRequest(
        async () => (await closedLoop({ concurrency: 50, count: 30_000, maxMs: 10_000 }, ask)).results.length,
      );
      return { paced, saturated };
    } finally {
      await pool.close();
    }
  } finally {
    server.kill();
  }
}
