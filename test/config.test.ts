import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("has defaults for everything", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, databaseUrl: undefined, logLevel: "info", bootstrap: true });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it("reads the variables", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "postgresql://u:p@db.internal:5432/birrcheck",
      DATA_DIR: "/var/lib/birrcheck",
      LOG_LEVEL: "warn",
      BOOTSTRAP: "false",
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: "postgresql://u:p@db.internal:5432/birrcheck",
      dataDir: "/var/lib/birrcheck",
      logLevel: "warn",
      bootstrap: false,
    });
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it("names every bad variable in one message", () => {
    expect(() => loadConfig({ PORT: "99999", BOOTSTRAP: "yes" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "99999", BOOTSTRAP: "yes" })).toThrow(
      "Invalid configuration: PORT must be between 0 and 65535; BOOTSTRAP must be true or false.",
    );
  });

  it("does not read process.env", () => {
    process.env.PORT = "1234";
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      delete process.env.PORT;
    }
  });
});
