import { compareReading, generatePhrasings } from "../../test/fixtures/phrasings/generate.js";
import type { BenchContext } from "../context.js";
import { atLeast, atMost, type ScenarioResult } from "../figures.js";
import { exchange } from "../load.js";
import { round } from "../stats.js";

const CONCURRENCY = 20;

/**
 * 15. Reading the generated phrasings (test/fixtures/phrasings, written from the banks' documented facts
 * by someone who had not read the readers): every text posted to parse-receipt as a client would, and
 * scored by the generator's own comparison. `wrong` counts fields read with another value than the text's.
 */
export async function generatedPhrasings(ctx: BenchContext): Promise<ScenarioResult> {
  const items = generatePhrasings({ seed: 1 });
  const scores: ReturnType<typeof compareReading>[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (!item) break;
      const { status, body } = await exchange(ctx.api, "/api/v1/verify/parse-receipt", {
        method: "POST",
        headers: { authorization: `Bearer ${ctx.tenant.verifyBranch.key}` },
        json: { receipt_text: item.text },
      });
      scores.push(compareReading(item.expected, { status, body }));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const exact = scores.filter((score) => score.exact).length;
  const wrong = scores.reduce((sum, score) => sum + score.wrong.length, 0);
  return {
    figures: [
      atLeast(
        "reading.text.generated.exact",
        15,
        `generated phrasings read exactly (of ${items.length})`,
        round((100 * exact) / items.length, 1),
        "%",
        97,
      ),
      atMost("reading.text.generated.wrong", 15, "… fields read wrong", wrong, "", 0),
    ],
    details: { items: items.length, exact, wrong },
  };
}
