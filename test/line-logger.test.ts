import { describe, expect, it } from "vitest";
import { createLineLogger } from "../src/line-logger.js";
import { createLogger } from "../src/logger.js";

function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLineLogger(level, (line) => {
    expect(line.endsWith("\n")).toBe(true);
    lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return { logger, lines };
}

describe("the primary's line logger", () => {
  it("writes pino's line shape: numeric level, ISO time, service, the fields, msg last", () => {
    const { logger, lines } = captured("info");
    logger.info({ workers: 2 }, "workers started");
    logger.error("the first worker could not start");
    expect(lines).toHaveLength(2);
    const [started, failed] = lines;
    expect(Object.keys(started ?? {})).toEqual(["level", "time", "service", "workers", "msg"]);
    expect(started).toMatchObject({ level: 30, service: "birrcheck", workers: 2, msg: "workers started" });
    expect(new Date(String(started?.time)).toISOString()).toBe(started?.time);
    expect(failed).toMatchObject({ level: 50, msg: "the first worker could not start" });
  });

  it("matches the service's own logger, so one log reads as one stream", () => {
    const own: Record<string, unknown>[] = [];
    const pino = createLogger("info", { write: (line: string) => own.push(JSON.parse(line)) });
    pino.warn({ pid: 7 }, "same");
    const { logger, lines } = captured("info");
    logger.warn({ pid: 7 }, "same");
    const { time: _a, ...ours } = lines[0] ?? {};
    const { time: _b, ...theirs } = own[0] ?? {};
    expect(ours).toEqual(theirs);
  });

  it("writes errors with their type, message and stack", () => {
    const { logger, lines } = captured("info");
    logger.fatal({ err: new RangeError("gone") }, "start failed");
    expect(lines[0]).toMatchObject({ level: 60, err: { type: "RangeError", message: "gone" } });
    const err = lines[0]?.err as { stack?: unknown } | undefined;
    expect(String(err?.stack)).toContain("RangeError: gone");
  });

  it("writes a system error's own fields, as pino does", () => {
    const error = Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE", port: 8080 });
    const own: Record<string, unknown>[] = [];
    createLogger("info", { write: (line: string) => own.push(JSON.parse(line)) }).fatal({ err: error }, "x");
    const { logger, lines } = captured("info");
    logger.fatal({ err: error }, "x");
    expect(lines[0]?.err).toEqual(own[0]?.err);
    expect(lines[0]?.err).toMatchObject({ code: "EADDRINUSE", port: 8080 });
  });

  it("leaves out lines below its level; silent writes nothing", () => {
    const warn = captured("warn");
    warn.logger.info("no");
    warn.logger.debug({ component: "postgres" }, "no");
    warn.logger.warn("yes");
    expect(warn.lines.map((line) => line.msg)).toEqual(["yes"]);
    const silent = captured("silent");
    silent.logger.fatal("no");
    expect(silent.lines).toEqual([]);
  });
});
