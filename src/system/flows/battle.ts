/**
 * What the table does by itself as a battle goes on (the combat hooks of the active GM's client in
 * Foundry; the playground's End combat): a Fudge stun counting down at the end of the stunned
 * fighter's turn (Fudge §4.62), and the battle's end — Willpower adjustments that held "until the
 * battle is over" lapse (Fudge §4.52 (4)) with one chat note, then the world's combat-end healing.
 */
import * as actions from "../actions";
import { readActor, stunInForce } from "../combatant";
import { combatEndHealing } from "../combat";
import { turnEndStunHealing, type StunSnapshot } from "../../rules/fudge";
import type { BattleEndEntry, LapseNote } from "../battle-end";
import type { HostPort } from "./port";
import { healQuietly } from "./heal";

/** Fudge §4.62: the stunned fighter's turn ended — the stun in force as it began loses a round (decided from the live track in his turn). */
export async function stunCountdown(port: HostPort, actorRef: string, atStart: StunSnapshot | null): Promise<void> {
  const rules = port.rules();
  await port.writeActor(actorRef, async (turn) => {
    const doc = readActor(turn.read(), rules);
    const type = turnEndStunHealing(rules.preset, atStart, stunInForce(doc, rules));
    if (type) await turn.write(actions.healWounds(doc, { type }, rules, port.user).update);
  });
}

/**
 * The battle is over for these actors (the combat's, or every actor of the playground): first the
 * lapses of each (from its live document and its own wound log; no write when nothing lapses), one
 * note for them all, then the world's healing at combat end. An actor that cannot be changed is
 * reported and left as it was; the others go on.
 */
export async function endBattle(
  port: HostPort,
  actorRefs: readonly string[],
  postNote: (entries: BattleEndEntry[]) => Promise<void>,
): Promise<void> {
  const rules = port.rules();
  const entries: BattleEndEntry[] = [];
  for (const ref of actorRefs) {
    const actor = port.actor(ref);
    if (!actor || actions.endBattleFor(readActor(actor, rules), rules) === null) continue;
    let notes: LapseNote[] = [];
    try {
      await port.writeActor(ref, async (turn) => {
        const r = actions.endBattleFor(readActor(turn.read(), rules), rules);
        notes = r?.notes ?? [];
        if (r) await turn.write(r.update);
      });
    } catch (e) {
      notes = [];
      port.report(e, actor.name);
    }
    entries.push({ name: actor.name, notes });
  }
  try {
    await postNote(entries);
  } catch (e) {
    port.report(e);
  }
  const type = combatEndHealing(rules);
  if (!type) return;
  for (const ref of actorRefs) {
    const actor = port.actor(ref);
    if (!actor) continue;
    try {
      await healQuietly(port, ref, type);
    } catch (e) {
      port.report(e, actor.name);
    }
  }
}
