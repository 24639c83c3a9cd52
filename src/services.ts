import type { MikroORM } from "@mikro-orm/postgresql";
import {
  createAccount,
  deleteAccount,
  findAccount,
  listAccounts,
  type NewSavedAccount,
  type SavedAccountChanges,
  type SavedAccountRecord,
  updateAccount,
} from "./accounts/saved-accounts.js";
import type { Role } from "./auth/roles.js";
import {
  branchOfGroup,
  forgetGroup,
  type LinkOutcome,
  linkGroup,
  moveGroup,
  unlinkGroup,
} from "./branches/groups.js";
import { setStaleLimit, staleLimit } from "./branches/stale-limit.js";
import type { VerificationRecord } from "./db/verification-record.js";
import { type DayEntry, dayEntries } from "./history/day-report.js";
import { type ConfirmedElsewhere, confirmedElsewhere } from "./history/elsewhere.js";
import { type ExportFilters, exportVerifications } from "./history/export.js";
import { recentBySource } from "./history/recent.js";
import { getVerification, type HistoryQuery, listVerifications } from "./history/verifications.js";
import { type AlertRecipient, alertRecipients, setAlerts } from "./telegram/alerts.js";
import { type ConversationStore, createConversationStore } from "./telegram/conversation-store.js";
import { createInvite, type Invite } from "./telegram/invites.js";
import {
  findMember,
  type JoinOutcome,
  joinByInvite,
  leaveBranch,
  type Member,
  setLanguage,
} from "./telegram/members.js";
import { createPendingUpdates, type PendingUpdates } from "./telegram/pending-updates.js";
import { claimDueSummaries, type DueSummary, releaseSummary, setSummaryTime } from "./telegram/summaries.js";

// What the front ends ask of the database, as plain records in and out. Built once from the ORM in the
// composition root; every call forks its own EntityManager, so no caller holds one (or an entity).

/** A branch's saved receiving accounts (src/accounts/saved-accounts.ts). */
export interface AccountsService {
  list(branchId: number): Promise<SavedAccountRecord[]>;
  /** Throws NotFoundError when the branch has no such account. */
  find(branchId: number, id: number): Promise<SavedAccountRecord>;
  create(branchId: number, input: NewSavedAccount): Promise<SavedAccountRecord>;
  /** Throws NotFoundError when the branch has no such account. */
  update(branchId: number, id: number, changes: SavedAccountChanges): Promise<SavedAccountRecord>;
  /** Throws NotFoundError when the branch has no such account. */
  delete(branchId: number, id: number): Promise<void>;
}

/** A branch's verifications (src/history/). */
export interface HistoryService {
  list(branchId: number, query: HistoryQuery): Promise<VerificationRecord[]>;
  /** One verification of the branch; throws NotFoundError when it has none such (or it was deleted). */
  get(branchId: number, id: number): Promise<VerificationRecord>;
  /** The first confirmation of the receipt at another branch of the business (src/history/elsewhere.ts). */
  confirmedElsewhere(at: {
    businessId: number;
    branchId: number;
    bank: string;
    transactionNumber: string;
  }): Promise<ConfirmedElsewhere | null>;
  /** The latest verifications one caller (history's `source`) made in its branch, newest first. */
  recentBySource(
    branchId: number,
    source: { type: string; label: string },
    limit: number,
  ): Promise<VerificationRecord[]>;
  /** The branch's history as CSV text in chunks, streamed from the database (GET /verifications/export). */
  export(branchId: number, filters: ExportFilters): AsyncIterable<string>;
  /** The branch's verifications of an Addis Ababa day up to `until`, oldest first (the daily summary). */
  day(branchId: number, day: string, until: Date): Promise<DayEntry[]>;
}

/** Telegram members of branches and the invites that let them join (src/telegram/). */
export interface MembersService {
  find(telegramUserId: string): Promise<Member | null>;
  joinByInvite(code: string, user: { telegramUserId: string; name: string }): Promise<JoinOutcome>;
  /** False when the user was no member. */
  leave(telegramUserId: string): Promise<boolean>;
  createInvite(branchId: number, role: Role): Promise<Invite>;
  /** The bot language the member chose; false when the user is no member. */
  setLanguage(telegramUserId: string, language: string): Promise<boolean>;
  /** A manager's /alerts on|off; false when the user is no member. */
  setAlerts(telegramUserId: string, on: boolean): Promise<boolean>;
  /** The branch's managers who want its ⚠️ outcomes pushed to them. */
  alertRecipients(branchId: number): Promise<AlertRecipient[]>;
  /** A manager's /summary HH:MM (minutes after midnight) or off (null); false when the user is no member. */
  setSummaryTime(telegramUserId: string, minute: number | null): Promise<boolean>;
  /** Claims the daily summaries due now for this instance to send (each day's once, across instances). */
  claimDueSummaries(now: Date): Promise<DueSummary[]>;
  /** Gives back a claimed summary that could not be sent. */
  releaseSummary(summary: DueSummary): Promise<void>;
}

/** A branch's settings (src/branches/). */
export interface BranchesService {
  /** Minutes after which a confirmed payment is flagged as stale; null: never. */
  staleLimit(branchId: number): Promise<number | null>;
  setStaleLimit(branchId: number, minutes: number | null): Promise<void>;
  /** Makes the Telegram group the branch's group (src/branches/groups.ts). */
  linkGroup(branchId: number, chatId: string): Promise<LinkOutcome>;
  /** False when the group was not this branch's. */
  unlinkGroup(branchId: number, chatId: string): Promise<boolean>;
  /** The branch whose group the chat is, or null. */
  branchOfGroup(chatId: string): Promise<number | null>;
  forgetGroup(chatId: string): Promise<void>;
  moveGroup(fromChatId: string, toChatId: string): Promise<void>;
}

export interface Services {
  accounts: AccountsService;
  branches: BranchesService;
  history: HistoryService;
  members: MembersService;
  /** The bot's conversation state (bot/storage.ts adapts it to the conversations plugin). */
  conversations: ConversationStore;
  /** Updates the poller fetched and has not finished (bot/polling.ts). */
  pendingUpdates: PendingUpdates;
}

export function createServices(orm: MikroORM): Services {
  const fork = () => orm.em.fork();
  return {
    accounts: {
      list: (branchId) => listAccounts(fork(), branchId),
      find: (branchId, id) => findAccount(fork(), branchId, id),
      create: (branchId, input) => createAccount(fork(), branchId, input),
      update: (branchId, id, changes) => updateAccount(fork(), branchId, id, changes),
      delete: (branchId, id) => deleteAccount(fork(), branchId, id),
    },
    branches: {
      staleLimit: (branchId) => staleLimit(fork(), branchId),
      setStaleLimit: (branchId, minutes) => setStaleLimit(fork(), branchId, minutes),
      linkGroup: (branchId, chatId) => linkGroup(fork(), branchId, chatId),
      unlinkGroup: (branchId, chatId) => unlinkGroup(fork(), branchId, chatId),
      branchOfGroup: (chatId) => branchOfGroup(fork(), chatId),
      forgetGroup: (chatId) => forgetGroup(fork(), chatId),
      moveGroup: (fromChatId, toChatId) => moveGroup(fork(), fromChatId, toChatId),
    },
    history: {
      list: (branchId, query) => listVerifications(fork(), branchId, query),
      get: (branchId, id) => getVerification(fork(), branchId, id),
      recentBySource: (branchId, source, limit) => recentBySource(fork(), branchId, source, limit),
      confirmedElsewhere: (at) => confirmedElsewhere(fork(), at),
      day: (branchId, day, until) => dayEntries(fork(), branchId, day, until),
      export: (branchId, filters) => exportVerifications(fork(), branchId, filters),
    },
    members: {
      find: (telegramUserId) => findMember(fork(), telegramUserId),
      joinByInvite: (code, user) => joinByInvite(fork(), code, user),
      leave: (telegramUserId) => leaveBranch(fork(), telegramUserId),
      createInvite: (branchId, role) => createInvite(fork(), branchId, role),
      setLanguage: (telegramUserId, language) => setLanguage(fork(), telegramUserId, language),
      setAlerts: (telegramUserId, on) => setAlerts(fork(), telegramUserId, on),
      alertRecipients: (branchId) => alertRecipients(fork(), branchId),
      setSummaryTime: (telegramUserId, minute) => setSummaryTime(fork(), telegramUserId, minute),
      claimDueSummaries: (now) => claimDueSummaries(fork(), now),
      releaseSummary: (summary) => releaseSummary(fork(), summary),
    },
    conversations: createConversationStore(fork),
    pendingUpdates: createPendingUpdates(fork),
  };
}
