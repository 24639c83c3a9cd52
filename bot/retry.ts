import { setTimeout as sleep } from "node:timers/promises";
import type { Transformer } from "grammy";

const MAX_RETRIES = 2;
const MAX_WAIT_S = 30;

/**
 * Telegram answers 429 with `retry_after` when a bot sends too fast (about one message per second per chat);
 * waiting that long and trying again turns a flood limit into a short delay instead of a lost reply.
 */
export const retryFloodLimits: Transformer = async (previous, method, payload, signal) => {
  for (let attempt = 0; ; attempt += 1) {
    const result = await previous(method, payload, signal);
    const wait = result.ok ? undefined : result.parameters?.retry_after;
    if (result.ok || result.error_code !== 429 || wait === undefined || attempt >= MAX_RETRIES) return result;
    if (wait > MAX_WAIT_S) return result;
    await sleep(wait * 1000);
  }
};
