import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { recordCounter, TooLargeForTelegram } from "../../bot/handlers/export.js";

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

describe("the bot's export counter", () => {
  it("counts records after the header, not line breaks inside quoted fields, across chunks", async () => {
    const counter = recordCounter(1_000);
    const chunks = ['\uFEFFid,name\r\n1,"Abebe, ""Abe', '""\r\nKebede"\r\n2,አበበ\r\n3,"a\nb"\r\n'];
    await pipeline(Readable.from(chunks), counter, sink());
    expect(counter.count()).toBe(3);
  });

  it("stops as soon as the text passes the size Telegram takes", async () => {
    const counter = recordCounter(10);
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced += 1;
        yield "1234567890\r\n";
      }
    }
    await expect(pipeline(Readable.from(endless()), counter, sink())).rejects.toBeInstanceOf(
      TooLargeForTelegram,
    );
    expect(produced).toBeLessThan(5);
  });
});
