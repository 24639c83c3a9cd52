import { simulatedAmhara } from "../banks/amhara/imitation.js";
import { simulatedAwash } from "../banks/awash/imitation.js";
import { simulatedBoa } from "../banks/boa/imitation.js";
import { simulatedCbe } from "../banks/cbe/imitation.js";
import { simulatedCbeBirr } from "../banks/cbebirr/imitation.js";
import { simulatedDashen } from "../banks/dashen/imitation.js";
import { simulatedMpesa } from "../banks/mpesa/imitation.js";
import { simulatedSinqee } from "../banks/sinqee/imitation.js";
import { simulatedTelebirr } from "../banks/telebirr/imitation.js";
import { simulatedZemen } from "../banks/zemen/imitation.js";
import type { SimulatedBank } from "./types.js";

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
