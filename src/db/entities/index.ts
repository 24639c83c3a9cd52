import { ApiKeySchema } from "./api-key.js";
import { BotConversationSchema } from "./bot-conversation.js";
import { BotPendingUpdateSchema } from "./bot-pending-update.js";
import { BranchSchema } from "./branch.js";
import { BusinessSchema } from "./business.js";
import { ConfirmedReceiptSchema } from "./confirmed-receipt.js";
import { IdempotencyKeySchema } from "./idempotency-key.js";
import { InviteCodeSchema } from "./invite-code.js";
import { LeaseSchema } from "./lease.js";
import { QuotaUsageSchema } from "./quota-usage.js";
import { SavedAccountSchema } from "./saved-account.js";
import { TelegramMemberSchema } from "./telegram-member.js";
import { VerificationSchema } from "./verification.js";

export * from "./api-key.js";
export * from "./bot-conversation.js";
export * from "./bot-pending-update.js";
export * from "./branch.js";
export * from "./business.js";
export * from "./confirmed-receipt.js";
export * from "./idempotency-key.js";
export * from "./invite-code.js";
export * from "./lease.js";
export * from "./quota-usage.js";
export * from "./saved-account.js";
export * from "./telegram-member.js";
export * from "./verification.js";

export const ENTITIES = [
  BusinessSchema,
  BranchSchema,
  ApiKeySchema,
  SavedAccountSchema,
  VerificationSchema,
  ConfirmedReceiptSchema,
  QuotaUsageSchema,
  TelegramMemberSchema,
  InviteCodeSchema,
  BotConversationSchema,
  BotPendingUpdateSchema,
  IdempotencyKeySchema,
  LeaseSchema,
];
