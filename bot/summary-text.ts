import { bankName } from "../src/banks/catalogue.js";
import type { BankCode } from "../src/banks/codes.js";
import type { DayEntry } from "../src/history/day-report.js";
import type { OutcomeKind } from "../src/history/outcome.js";
import type { Texts } from "./i18n.js";
import { durationText, staleBy } from "./staleness.js";

const OUTCOME_ORDER: readonly OutcomeKind[] = [
  "confirmed",
  "duplicate",
  "not_found",
  "wrong_account",
  "not_completed",
  "document_mismatch",
];
// A summary is one message (Telegram's limit is 4,096 characters); the rest are one /history away.
const MOST_FLAGGED = 15;

/**
 * The daily summary: the day's count by outcome, the confirmed total per bank, and the receipts
 * a manager should look at: every ⚠️ outcome, and confirmations that were stale when checked.
 */
export function summaryText(
  texts: Texts,
  branchName: string,
  until: Date,
  entries: readonly DayEntry[],
  staleLimit: number | null,
): string {
  const { t } = texts;
  const header = t("summary-header", { branch: branchName, when: texts.date(until) });
  if (entries.length === 0) return `${header}\n\n${t("summary-empty")}`;

  const counts = OUTCOME_ORDER.map((outcome) => ({
    outcome,
    n: entries.filter((entry) => entry.outcome === outcome).length,
  })).filter(({ n }) => n > 0);
  const sections = [counts.map(({ outcome, n }) => t("summary-count", { outcome, n })).join("\n")];

  const totals = confirmedTotals(entries);
  if (totals.length > 0) {
    const lines = totals.map(({ bank, currency, amount, n }) =>
      t("summary-total", { bank: bankName(bank as BankCode), amount: texts.amount(amount, currency), n }),
    );
    sections.push([t("summary-totals"), ...lines].join("\n"));
  }

  const flagged = entries.flatMap((entry) => {
    const why = flagOf(texts, entry, staleLimit);
    return why ? [{ entry, why }] : [];
  });
  if (flagged.length > 0) {
    const lines = flagged.slice(0, MOST_FLAGGED).map(({ entry, why }) =>
      t("summary-flagged-line", {
        time: texts.date(entry.createdAt),
        bank: bankName(entry.bank as BankCode),
        amount: texts.amount(entry.amount, entry.currency),
        reference: entry.transactionNumber,
        who: entry.sourceLabel,
        why,
      }),
    );
    if (flagged.length > MOST_FLAGGED) lines.push(t("summary-more", { n: flagged.length - MOST_FLAGGED }));
    sections.push([t("summary-flagged"), ...lines].join("\n"));
  }
  return [header, ...sections].join("\n\n");
}

/** Why a day's entry is flagged (already escaped text), or null; a not-found is no receipt to look at. */
function flagOf(texts: Texts, entry: DayEntry, staleLimit: number | null): string | null {
  if (entry.outcome === "not_found") return null;
  if (entry.outcome !== "confirmed") return texts.t("summary-flag", { outcome: entry.outcome });
  const ago = staleBy(entry.transactionDate, staleLimit, entry.createdAt);
  return ago === null ? null : texts.t("summary-flag-stale", { ago: durationText(texts, ago) });
}

function confirmedTotals(entries: readonly DayEntry[]) {
  const totals = new Map<string, { bank: string; currency: string | null; amount: number; n: number }>();
  for (const entry of entries) {
    if (entry.outcome !== "confirmed") continue;
    const key = `${entry.bank} ${entry.currency ?? ""}`;
    const total = totals.get(key) ?? { bank: entry.bank, currency: entry.currency, amount: 0, n: 0 };
    total.amount = Math.round((total.amount + (entry.amount ?? 0)) * 100) / 100;
    total.n += 1;
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => b.amount - a.amount);
}
