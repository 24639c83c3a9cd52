import { simulatedAmhara } from "../banks/amhara/imitation.js";
import { simulatedAwash } from "../banks/awash/imitation.js";
import { simulatedBoa } from "../banks/boa/imitation.js";
import { simulatedCbe } from "../banks/cbe/imitation.js";
import { simulatedCbeBirr } from "../banks/cbebirr/imitation.js";
import { BANK_CODES, type BankCode } from "../banks/codes.js";
import { simulatedDashen } from "../banks/dashen/imitation.js";
import { simulatedMpesa } from "../banks/mpesa/imitation.js";
import { simulatedSinqee } from "../banks/sinqee/imitation.js";
import { simulatedTelebirr } from "../banks/telebirr/imitation.js";
import { simulatedZemen } from "../banks/zemen/imitation.js";
import type { SimulatedBank } from "./types.js";

/** The ten imitated banks by bank code: a bank added to BANK_CODES without an imitation does not compile. */
export const ALL_SIMULATED_BANKS: Readonly<Record<BankCode, SimulatedBank>> = {
  cbe: simulatedCbe,
  telebirr: simulatedTelebirr,
  dashen: simulatedDashen,
  awash: simulatedAwash,
  boa: simulatedBoa,
  zemen: simulatedZemen,
  cbebirr: simulatedCbeBirr,
  mpesa: simulatedMpesa,
  sinqee: simulatedSinqee,
  amhara: simulatedAmhara,
};

for (const code of BANK_CODES) {
  const imitated = ALL_SIMULATED_BANKS[code].code;
  if (imitated !== code) throw new Error(`ALL_SIMULATED_BANKS.${code} imitates ${imitated}`);
}

/** The imitated banks in catalogue order. */
export function simulatedBankList(): SimulatedBank[] {
  return BANK_CODES.map((code) => ALL_SIMULATED_BANKS[code]);
}
