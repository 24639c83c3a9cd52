import { describe, expect, it } from "vitest";
import { createLogger, withoutSecretInErrors } from "../src/logger.js";

function captured() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("info", { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe("the service's logger censors secrets", () => {
  it("at the top of a line, one and two levels down, and in arrays", () => {
    const { logger, lines } = captured();
    logger.info(
      {
        key: "bk_live_top",
        apiKey: "bk_live_api",
        bank: { token: "t0k3n", name: "telebirr" },
        req: { method: "POST", headers: { authorization: "Bearer bk_live_header", accept: "*/*" } },
        accounts: [{ accountNumber: "1000123456789" }, { account_number: "1000987654321" }],
      },
      "calling",
    );
    const [line] = lines;
    expect(line).toMatchObject({
      key: "[redacted]",
      apiKey: "[redacted]",
      bank: { token: "[redacted]", name: "telebirr" },
      req: { method: "POST", headers: { authorization: "[redacted]", accept: "*/*" } },
      accounts: [{ accountNumber: "[redacted]" }, { account_number: "[redacted]" }],
      msg: "calling",
    });
    expect(JSON.stringify(line)).not.toMatch(/bk_live|t0k3n|1000123456789|1000987654321/);
  });

  it("without changing the caller's objects, and without copying a line that holds none", () => {
    const { logger, lines } = captured();
    const headers = { authorization: "Bearer bk_live_header" };
    const fields = { status: 200, nested: { headers } };
    logger.info(fields, "request");
    expect(headers.authorization).toBe("Bearer bk_live_header");
    expect(lines[0]).toMatchObject({ status: 200, nested: { headers: { authorization: "[redacted]" } } });

    logger.info({ method: "GET", path: "/api/v1/history", status: 200, ms: 3.1 }, "request");
    expect(lines[1]).toMatchObject({ method: "GET", path: "/api/v1/history", status: 200, ms: 3.1 });
  });

  it("in an error's own fields, keeping its message and stack", () => {
    const { logger, lines } = captured();
    const error = Object.assign(new Error("lookup failed"), { code: "E_BANK", key: "bk_live_err" });
    logger.error({ err: error }, "failed");
    logger.error(error);
    for (const line of lines) {
      expect(line.err).toMatchObject({
        type: "Error",
        message: "lookup failed",
        code: "E_BANK",
        key: "[redacted]",
      });
      expect(String((line.err as { stack: string }).stack)).toContain("lookup failed");
    }
  });

  it("and the bot's logger also hides its token where an error quotes it", () => {
    const { logger, lines } = captured();
    const bot = withoutSecretInErrors(logger, "123456:SECRET");
    bot.error(
      { err: Object.assign(new Error("GET https://api.telegram.org/bot123456:SECRET/getMe"), { key: "k" }) },
      "telegram getMe failed; retrying",
    );
    expect(JSON.stringify(lines[0])).not.toContain("123456:SECRET");
    expect(lines[0]?.err).toMatchObject({ key: "[redacted]" });
  });
});
