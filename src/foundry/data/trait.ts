/** Shared schema of gifts and faults: a description and an optional rules effect (Fudge §4.51 ff.). */
import { defaultTraitData, TRAIT_EFFECTS } from "../../system/data";
import { choice, richText, int } from "./fields";

export function traitSchema() {
  const D = defaultTraitData();
  return {
    effect: choice(TRAIT_EFFECTS, D.effect),
    // Size of the effect: Tough Hide +1…, Volt Tough steps, number of Terrifying gifts.
    value: int(D.value, -20, 20),
    description: richText(),
  };
}
