import { ALL_SIMULATED_BANKS } from "./imitations.js";
import { startSimulator } from "./server.js";

// `npm run simulator`: the fake banks on one port, for the sandbox and for manual runs of the service.
const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, got ${process.env.PORT}`);
  process.exit(1);
}

const simulator = await startSimulator(ALL_SIMULATED_BANKS, { port, host: process.env.HOST ?? "127.0.0.1" });
console.log(`Bank simulator listening on ${simulator.url}`);
console.log("Start the service with:");
console.log(`BANK_ORIGIN_OVERRIDES=${simulator.overrides}`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, stopping the simulator`);
  await simulator.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
