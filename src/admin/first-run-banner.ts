import { sandboxExamples } from "../simulator/sandbox-examples.js";
import {
  BOOTSTRAP_SANDBOX_LABEL,
  type Bootstrapped,
  DEFAULT_BRANCH_NAME,
  DEFAULT_BUSINESS_NAME,
  DEFAULT_MONTHLY_QUOTA,
} from "./bootstrap.js";

/** The bank of the banner's sandbox verification: it needs no account, so the request stays short. */
const TRY_BANK = "telebirr";

/**
 * The text printed once on the first start of an empty database: the ids the admin CLI asks for, both keys,
 * and a sandbox verification to paste. The variables it exports are the ones README.md's tour and docs/api.md
 * use, so every example there works in the same shell.
 */
export function firstRunBanner(url: string, bootstrapped: Bootstrapped): string {
  const reference = sandboxExamples()[TRY_BANK].target.transactionNumber;
  const body = JSON.stringify({ bank: TRY_BANK, transaction_number: reference });
  return [
    "",
    "Birrcheck is set up. The two keys below are shown only now: store them.",
    "",
    `  business ${bootstrapped.businessId}  "${DEFAULT_BUSINESS_NAME}" (monthly quota ${DEFAULT_MONTHLY_QUOTA})`,
    `  branch   ${bootstrapped.branchId}  "${DEFAULT_BRANCH_NAME}"`,
    "",
    `  admin key ${bootstrapped.adminKeyId} (live: asks the real banks, uses quota):`,
    `    ${bootstrapped.key}`,
    `  sandbox key ${bootstrapped.sandboxKeyId} "${BOOTSTRAP_SANDBOX_LABEL}" (manager; simulated banks, no quota, its own history):`,
    `    ${bootstrapped.sandboxKey}`,
    "",
    "Try a sandbox verification (paste into a shell):",
    "",
    `  export BIRRCHECK_URL=${url}`,
    `  export BIRRCHECK_KEY=${bootstrapped.sandboxKey}`,
    `  curl -s -X POST "$BIRRCHECK_URL/api/v1/verify" -H "Authorization: Bearer $BIRRCHECK_KEY" -H "Content-Type: application/json" -d '${body}'`,
    "",
    `More keys:     npm run admin -- key:create --branch ${bootstrapped.branchId} --role cashier [--test]`,
    `API reference: ${url}/docs (Authorize with a key above)`,
    "",
    "",
  ].join("\n");
}
