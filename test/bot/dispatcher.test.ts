import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { UpdateDispatcher } from "../../bot/dispatcher.js";
import { createLogger } from "../../src/logger.js";

const update = (id: number, chat: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 0, chat: { id: chat, type: "private" }, text: "x" },
  }) as Update;

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("UpdateDispatcher", () => {
  it("handles one chat in order and other chats alongside, within the concurrency limit", async () => {
    const events: string[] = [];
    let running = 0;
    let peak = 0;
    const dispatcher = new UpdateDispatcher(
      async (u) => {
        running += 1;
        peak = Math.max(peak, running);
        events.push(`start ${u.update_id}`);
        // The first update of chat 1 is slow: chat 1's next update must wait for it, chat 2's must not.
        await tick(u.update_id === 1 ? 60 : 5);
        events.push(`end ${u.update_id}`);
        running -= 1;
      },
      3,
      createLogger("silent"),
    );
    const all = [update(1, 1), update(2, 1), update(3, 2), update(4, 3), update(5, 4), update(6, 5)].map(
      (u) => dispatcher.dispatch(u),
    );
    await Promise.all(all);
    expect(events.indexOf("start 2")).toBeGreaterThan(events.indexOf("end 1"));
    expect(events.indexOf("end 3")).toBeLessThan(events.indexOf("end 1"));
    expect(peak).toBe(3);
    expect(dispatcher.pending).toBe(0);
  });

  // Unlike @grammyjs/runner's sink, whose `concurrency` counts updates held back by `sequentialize`.
  it("gives no slot to updates waiting for their own chat, so a busy chat does not hold back others", async () => {
    const ended: number[] = [];
    const dispatcher = new UpdateDispatcher(
      async (u) => {
        await tick(u.update_id === 1 ? 60 : 5);
        ended.push(u.update_id);
      },
      2,
      createLogger("silent"),
    );
    const chatOne = [1, 2, 3, 4].map((id) => update(id, 1));
    await Promise.all([...chatOne, update(5, 2), update(6, 3)].map((u) => dispatcher.dispatch(u)));
    expect(ended.indexOf(6)).toBeLessThan(ended.indexOf(1));
    expect(ended.filter((id) => id <= 4)).toEqual([1, 2, 3, 4]);
  });

  it("logs a failing update and goes on with the chat", async () => {
    const handled: number[] = [];
    const dispatcher = new UpdateDispatcher(
      async (u) => {
        if (u.update_id === 1) throw new Error("boom");
        handled.push(u.update_id);
      },
      2,
      createLogger("silent"),
    );
    await Promise.all([dispatcher.dispatch(update(1, 1)), dispatcher.dispatch(update(2, 1))]);
    expect(handled).toEqual([2]);
  });
});
