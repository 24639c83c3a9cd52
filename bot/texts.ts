import type { Role } from "../src/auth/roles.js";
import { BANK_CATALOGUE } from "../src/banks/catalogue.js";
import { BANK_CODES } from "../src/banks/codes.js";
import { escapeHtml } from "./format.js";

/** Every sentence the bot says, in one place (HTML parse mode where tags appear). */
export const TEXTS = {
  outsider:
    "This bot checks payments for the staff of businesses that use Birrcheck.\n\nTo join, ask your manager for an invite link and open it, or send /start followed by the invite code.",
  tooManyAttempts: (seconds: number) => `Too many attempts. Please wait ${seconds} seconds and try again.`,
  inviteUnknown: "That invite code is not valid. Ask your manager for a new invite link.",
  inviteUsed: "That invite code was already used. Each invite works once: ask your manager for a new one.",
  inviteExpired: "That invite code has expired. Ask your manager for a new invite link.",
  alreadyMember: (branch: string) =>
    `You are already a member of ${escapeHtml(branch)}. To join another branch, send /leave first.`,
  joined: (branch: string, business: string, role: Role) =>
    `Welcome! You joined <b>${escapeHtml(branch)}</b> of ${escapeHtml(business)} as ${role}.\n\n${TEXTS.howToVerify}`,
  welcomeBack: (branch: string) =>
    `You are a member of <b>${escapeHtml(branch)}</b>.\n\n${TEXTS.howToVerify}`,
  howToVerify:
    "Forward me the customer's bank SMS or receipt link, send a photo or the PDF of the receipt, or type the transaction number. I will tell you if the money really arrived and whether the receipt was already used.",
  managerHelp:
    "Manager commands:\n/history [7d|15d|30d|3m|6m|12m] [ok|failed] — this branch's verifications\n/accounts — the branch's receiving accounts\n/invite cashier|manager — an invite link for a new member",
  commonHelp:
    "/recent — your latest verifications\n/banks — the banks I can check\n/cancel — stop the current question\n/leave — leave this branch",
  managersOnly: "This command is for managers.",
  left: (branch: string) => `You left ${escapeHtml(branch)}. An invite link brings you back.`,
  cancelled: "Cancelled.",
  nothingToCancel: "There is nothing to cancel.",
  questionExpired: "This question is no longer open. Send the receipt again.",
  notUnderstood:
    "I did not find a receipt in that. Send the bank's receipt link or SMS, a photo or PDF of the receipt, or the transaction number.",
  unknownLink:
    "That link is not a receipt link of a bank I know. Send the link from the bank's SMS or app, a photo or PDF of the receipt, or the transaction number. /banks lists the banks.",
  unknownReference:
    "That does not look like a transaction number of any bank I know. /banks shows what each bank's numbers look like.",
  working: "Working on it…",
  downloading: "Downloading the file…",
  reading: "Reading the receipt…",
  receiptNeedsAccount: (bank: string) => `${escapeHtml(bank)} receipt read. One more thing:`,
  checkingWith: (bank: string) => `Checking with ${escapeHtml(bank)}…`,
  chooseBank: (reference: string) => `Which bank is <code>${escapeHtml(reference)}</code> from?`,
  bankChosen: (reference: string, bank: string) =>
    `<code>${escapeHtml(reference)}</code> · ${escapeHtml(bank)}`,
  chooseAccount: (bank: string) =>
    `Which ${escapeHtml(bank)} account received the money? Choose one, or type the account number.`,
  typeAccount: (bank: string) =>
    `${escapeHtml(bank)} needs the account that received the money. Type the account number.`,
  typeSmsAccount: (bank: string) =>
    `${escapeHtml(bank)} needs the account number of whoever got the bank's SMS (payer or receiver). Choose one of this branch's accounts, or type it.`,
  typePayerPhone: "CBE Birr needs the payer's phone number. Type it (09…, +251… or 251…).",
  notAnAccount: "Account numbers are digits only. Type it again, or /cancel.",
  notAPhone: "That is not a phone number. Type the payer's phone (09…, +251… or 251…), or /cancel.",
  fileTooLarge: "That file is over 10 MB. Send the receipt link, a photo or the PDF of the receipt instead.",
  unsupportedFile:
    "I can read PDF receipts and photos (JPG, PNG, WEBP). For anything else, send the receipt link.",
  downloadFailed: "I could not download that file from Telegram. Please send it again.",
  unreadablePhoto:
    "I could not read that photo. Send a sharp, straight photo of the whole receipt, a screenshot, or the receipt link.",
  ocrTooSlow: "Reading that photo took too long. Send the receipt link or the PDF instead.",
  quotaReached:
    "⛔ Your business has used this month's verifications. Ask your manager to upgrade the plan; nothing was checked.",
  bankDown: (bank: string) =>
    `🏦 ${escapeHtml(bank)} is not answering right now, so nothing was checked. Try again in a few minutes.`,
  bankGarbled: (bank: string) =>
    `🏦 ${escapeHtml(bank)} answered with something I could not read, so nothing was confirmed. Try again later.`,
  invalidInput: (message: string) => `⚠️ ${escapeHtml(message)}`,
  internalError: "Something went wrong on our side. Please try again in a moment.",
  inviteUsage: "Send /invite cashier or /invite manager.",
  invite: (role: Role, branch: string, link: string) =>
    `Invite for a new ${role} of ${escapeHtml(branch)}. It works once and expires in 7 days:\n${link}`,
  historyEmpty: "No verifications in this period.",
  recentHeader: "<b>Your latest verifications</b>",
  recentEmpty: "You have not verified anything yet.",
  historyUsage: "Send /history, optionally with a period (7d, 15d, 30d, 3m, 6m, 12m) and ok or failed.",
  accountsEmpty: "This branch has no saved accounts yet.",
  accountsHeader: (branch: string) => `Receiving accounts of <b>${escapeHtml(branch)}</b>:`,
  accountGone: "That account no longer exists.",
  confirmDelete: (account: string) => `Delete ${escapeHtml(account)}?`,
  deleted: (account: string) => `Deleted ${escapeHtml(account)}.`,
  madePrimary: (account: string) => `${escapeHtml(account)} is now the primary account for its bank.`,
  addBank: "Which bank is the new account at?",
  addNumber: (bank: string) => `Type the ${escapeHtml(bank)} account number.`,
  addLabel: "Type a label for it (for example “Main till”), or press Skip.",
  addPrimary: "Make it the primary account for this bank?",
  labelTooLong: "A label is at most 100 characters. Type a shorter one, or /cancel.",
  added: (account: string) => `Saved ${escapeHtml(account)}.`,
} as const;

/** The banks the bot checks, with what to send for each. */
export function banksText(): string {
  const lines = BANK_CODES.map((code) => {
    const info = BANK_CATALOGUE[code];
    return `<b>${escapeHtml(info.name)}</b>: ${escapeHtml(info.description)}`;
  });
  return lines.join("\n\n");
}
