import type { SimulatedBank } from "../types.js";
import { simulatedAmhara } from "./amhara.js";
import { simulatedAwash } from "./awash.js";
import { simulatedBoa } from "./boa.js";
import { simulatedCbe } from "./cbe.js";
import { simulatedCbeBirr } from "./cbebirr.js";
import { simulatedDashen } from "./dashen.js";
import { simulatedMpesa } from "./mpesa.js";
import { simulatedSinqee } from "./sinqee.js";
import { simulatedTelebirr } from "./telebirr.js";
import { simulatedZemen } from "./zemen.js";

/** The ten imitated banks, in catalogue order. */
export const ALL_SIMULATED_BANKS: readonly SimulatedBank[] = [
  simulatedCbe,
  simulatedTelebirr,
  simulatedDashen,
  simulatedAwash,
  simulatedBoa,
  simulatedZemen,
  simulatedCbeBirr,
  simulatedMpesa,
  simulatedSinqee,
  simulatedAmhara,
];
