import type { Conversation, ConversationFlavor } from "@grammyjs/conversations";
import type { FileFlavor } from "@grammyjs/files";
import type { Context } from "grammy";
import type { PollingLock } from "../src/db/polling-lock.js";
import type { VerificationEngine } from "../src/engine/index.js";
import type { Logger } from "../src/logger.js";
import type { Metrics } from "../src/metrics/registry.js";
import type { ReceiptReader } from "../src/receipts/reader.js";
import type { Services } from "../src/services.js";
import type { Member } from "../src/telegram/members.js";
import type { RetryStore } from "./retries.js";

/** What every handler of the bot uses: the same engine, reader and database as the API. */
export interface BotDependencies {
  /** Accounts, history, members and conversation state; the bot holds no EntityManager of its own. */
  services: Services;
  /** Takes the lock that lets one process of all the instances poll Telegram (src/db/polling-lock.ts). */
  pollingLock: PollingLock;
  engine: VerificationEngine;
  /** Reads PDFs, and photos with OCR on the server. */
  reader: ReceiptReader;
  logger: Logger;
  /** Counts updates by type on /metrics. */
  metrics?: Metrics;
  /** Verifications the bank did not answer in time, for the card's "Try again" button. */
  retries: RetryStore;
}

/** The context of an update from outside a conversation; `member` is set by the membership middleware. */
export type BotContext = FileFlavor<ConversationFlavor<Context & { member: Member | null }>>;

/** The context of an update from a member of a branch. */
export type MemberContext = BotContext & { member: Member };

/** Inside a conversation handlers see a plain context; the outer one is reached with conversation.external. */
export type BotConversation = Conversation<BotContext, Context>;

export function isMember(ctx: BotContext): ctx is MemberContext {
  return ctx.member !== null;
}

/** A group or supergroup, where a branch's cashiers confirm payments together (bot/handlers/groups.ts). */
export function inGroup(ctx: Context): boolean {
  return ctx.chat?.type === "group" || ctx.chat?.type === "supergroup";
}
