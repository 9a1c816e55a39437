/** What a card target's data says: which dice slots are not the attacker's (the defender's, the GM's), and its live applied wound. */
import type { AttackCardTarget } from "./data";

/** Slots the defender rolls on the card (Defend button): the opposed defence roll. */
export const isDefenderSlot = (id: string): boolean => id === "defense" || id === "defence";

/**
 * Fudge §4.55 GM judgement: "The GM can also use a Situational roll … Roll the dice behind a GM
 * screen" after deciding the wound. The one slot the attacker does not roll: the GM's client
 * rolls it when he applies his pick (judgeWound), and only that roll is read.
 */
export const GM_SLOT = "situational";

export const liveApplied = (t: AttackCardTarget): AttackCardTarget["applied"][number] | undefined =>
  t.applied.find((a) => !a.undone);
