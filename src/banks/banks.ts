import { amharaBank } from "./amhara/bank.js";
import { awashBank } from "./awash/bank.js";
import type { BankModule } from "./bank-module.js";
import { boaBank } from "./boa/bank.js";
import { cbeBank } from "./cbe/bank.js";
import { cbebirrBank } from "./cbebirr/bank.js";
import type { BankCode } from "./codes.js";
import { dashenBank } from "./dashen/bank.js";
import { mpesaBank } from "./mpesa/bank.js";
import { sinqeeBank } from "./sinqee/bank.js";
import { telebirrBank } from "./telebirr/bank.js";
import { zemenBank } from "./zemen/bank.js";

/** Every bank the service checks, one line each; a code of the contract without one is a type error. */
export const BANKS = {
  cbe: cbeBank,
  telebirr: telebirrBank,
  dashen: dashenBank,
  awash: awashBank,
  boa: boaBank,
  zemen: zemenBank,
  cbebirr: cbebirrBank,
  mpesa: mpesaBank,
  sinqee: sinqeeBank,
  amhara: amharaBank,
} as const satisfies { [K in BankCode]: BankModule<K> };
