import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { UpdateDispatcher } from "../../bot/dispatcher.js";
import { createLogger } from "../../src/logger.js";
import { type Deferred, deferred, drained } from "../support/wait.js";

const update = (id: number, chat: number): Update =>
  ({
    update_id: id,
    message: { message_id: id, date: 0, chat: { id: chat, type: "private" }, text: "x" },
  }) as Update;

/** Per update: a signal that its handler started, and a gate the test opens to let it finish. */
function gates() {
  const started = new Map<number, Deferred>();
  const release = new Map<number, Deferred>();
  const of = (map: Map<number, Deferred>, id: number): Deferred => {
    let gate = map.get(id);
    if (!gate) {
      gate = deferred();
      map.set(id, gate);
    }
    return gate;
  };
  return {
    /** Called by the handler: says it started, then waits to be released. */
    async pass(id: number): Promise<void> {
      of(started, id).resolve();
      await of(release, id).promise;
    },
    started: (...ids: number[]) => Promise.all(ids.map((id) => of(started, id).promise)),
    release: (id: number) => of(release, id).resolve(),
  };
}

describe("UpdateDispatcher", () => {
  it("handles one chat in order and other chats alongside, within the concurrency limit", async () => {
    const events: string[] = [];
    const gate = gates();
    let running = 0;
    let peak = 0;
    const dispatcher = new UpdateDispatcher(
      async (u) => {
        running += 1;
        peak = Math.max(peak, running);
        events.push(`start ${u.update_id}`);
        await gate.pass(u.update_id);
        events.push(`end ${u.update_id}`);
        running -= 1;
      },
      3,
      createLogger("silent"),
    );
    const all = [update(1, 1), update(2, 1), update(3, 2), update(4, 3), update(5, 4), update(6, 5)].map(
      (u) => dispatcher.dispatch(u),
    );
    // Three slots: chat 1's first update and chats 2 and 3; chat 1's second waits for its chat, 5 and 6
    // for a slot.
    await gate.started(1, 3, 4);
    await drained();
    expect(events).toEqual(["start 1", "start 3", "start 4"]);
    // A finished handler's slot goes to the next chat waiting for one; chat 1 stays busy meanwhile.
    gate.release(3);
    await gate.started(5);
    gate.release(4);
    await gate.started(6);
    await drained();
    expect(events).not.toContain("start 2");
    expect(running).toBe(3);
    gate.release(1);
    await gate.started(2);
    for (const id of [2, 5, 6]) gate.release(id);
    await Promise.all(all);
    expect(events.indexOf("start 2")).toBeGreaterThan(events.indexOf("end 1"));
    expect(events.indexOf("end 3")).toBeLessThan(events.indexOf("end 1"));
    expect(peak).toBe(3);
    expect(dispatcher.pending).toBe(0);
  });

  // Unlike @grammyjs/runner's sink, whose `concurrency` counts updates held back by `sequentialize`.
  it("gives no slot to updates waiting for their own chat, so a busy chat does not hold back others", async () => {
    const ended: number[] = [];
    const gate = gates();
    const dispatcher = new UpdateDispatcher(
      async (u) => {
        // Chat 1's first update holds its slot until the test releases it; the others finish at once.
        if (u.update_id === 1) await gate.pass(1);
        ended.push(u.update_id);
      },
      2,
      createLogger("silent"),
    );
    const chatOne = [1, 2, 3, 4].map((id) => update(id, 1));
    const all = [...chatOne, update(5, 2), update(6, 3)].map((u) => dispatcher.dispatch(u));
    // Chat 3's update needs the second slot after chat 2's: it must get it while chat 1's three wait.
    await all[5];
    expect(ended).toEqual([5, 6]);
    gate.release(1);
    await Promise.all(all);
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
