import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/db/unavailable.js";

/** An error as Node's net module raises it for a connection that fails. */
function connectError(code: string, address: string): Error {
  return Object.assign(new Error(`connect ${code} ${address}`), { code, syscall: "connect", address });
}

describe("a database that cannot answer now", () => {
  it("is a refused TCP connection, or a Unix socket gone with its server", () => {
    expect(isDatabaseUnavailable(connectError("ECONNREFUSED", "127.0.0.1:5432"))).toBe(true);
    // libpq's socket form (DATABASE_URL …?host=/var/run/postgresql) while the server is stopped.
    const gone = connectError("ENOENT", "/var/run/postgresql/.s.PGSQL.5432");
    expect(isDatabaseUnavailable(gone)).toBe(true);
    // MikroORM wraps driver errors and keeps the message.
    expect(isDatabaseUnavailable(new Error(`select 1 - ${gone.message}`))).toBe(true);
  });

  it("is a statement of a transaction that a stalled server's timeout already ended", () => {
    // What knex says to a flush's INSERT when the flush's BEGIN timed out on a stopped server.
    const ended = new Error("Transaction query already complete, run with DEBUG=knex:tx for more info");
    expect(isDatabaseUnavailable(ended)).toBe(true);
  });

  it("is a query on a connection that a failure already broke", () => {
    // pg's words for a client whose connection failed or was closed under it.
    for (const message of [
      "Client has encountered a connection error and is not queryable",
      "Client was closed and is not queryable",
    ]) {
      expect(isDatabaseUnavailable(new Error(message))).toBe(true);
    }
  });

  it("is a server out of connection slots", () => {
    // What PostgreSQL answers a new connection while max_connections backends exist (SQLSTATE 53300).
    const full = Object.assign(new Error("sorry, too many clients already"), { code: "53300" });
    expect(isDatabaseUnavailable(full)).toBe(true);
  });

  it("is not any missing file", () => {
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/tmp/upload'"), {
      code: "ENOENT",
    });
    expect(isDatabaseUnavailable(missing)).toBe(false);
  });
});
