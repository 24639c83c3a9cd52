import { describe, expect, it } from "vitest";
import { ormConfig } from "../../src/db/orm.js";

const connectionOf = (clientUrl: string) => ormConfig({ clientUrl }).driverOptions.connection;

describe("the ORM's connection", () => {
  it("takes libpq's Unix socket form, which MikroORM's own URL parsing drops", () => {
    const connection = connectionOf("postgres://birrcheck@localhost/birrcheck?host=/var/run/postgresql");
    expect(connection).toMatchObject({ host: "/var/run/postgresql", keepAlive: true });
  });

  it("leaves a TCP address to the URL", () => {
    expect(connectionOf("postgres://birrcheck@127.0.0.1:5432/birrcheck")).not.toHaveProperty("host");
    // A host parameter that is not a directory is not a socket.
    expect(connectionOf("postgres://birrcheck@localhost/birrcheck?host=db.internal")).not.toHaveProperty(
      "host",
    );
  });
});
