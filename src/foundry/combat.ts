/**
 * Combat and scene hooks, run by the active GM only: turn start (Miniatures Near Death Guts
 * roll, Guts re-check prompt, FATE Clipped and Fudge stun noted), turn end (FATE Clipped used up,
 * a Fudge stun counts down), round start (who began it Incapacitated, Fudge §4.64), combat end
 * (Willpower adjustments lapse, with one chat note; Scratches cleared per setting), scene end
 * (FATE Hurt cleared). What to do is decided in src/system/combat.ts; what it does to an actor is
 * a flow (src/system/flows) run against this client's port.
 */
import * as flows from "../system/flows";
import { stunInForce } from "../system/combatant";
import { CLIPPED_NOTE_FLAG } from "../system/clipped";
import { plainActor, worldRules, type DerivedActor } from "./bridge";
import {
  combatTurn,
  ROUND_START_FLAG,
  roundStartRecord,
  sceneEndHealing,
  STUN_NOTE_FLAG,
  turnEndHealing,
  turnStartTasks,
} from "../system/combat";
import { readStunSnapshot } from "../rules/fudge";
import { reportError } from "./foundry-util";
import { withRollMode } from "./dice";
import { toCore } from "./v14";
import { SYSTEM_ID } from "../system/registry";
import { battleEndNote, type BattleEndEntry } from "../system/battle-end";
import { TEMPLATES } from "../system/handlebars";
import { systemPath, templatesReady } from "./templates";
import { foundryPort } from "./port";
import type { MiniatureData } from "../system/data";

const FLAG_CLIPPED = CLIPPED_NOTE_FLAG;
const derivedOf = (a: Actor.Implementation) => (a.system as unknown as { derived?: DerivedActor }).derived ?? null;
const isActiveGM = () => game.user?.isActiveGM === true;

async function heal(actor: Actor.Implementation, type: string): Promise<void> {
  try {
    await (flows.loadedClicks() ?? (await flows.loadClicks())).healQuietly(foundryPort(), actor.uuid, type);
  } catch (e) {
    reportError(e, actor.name);
  }
}

/** A turn note in the actor's flags, written in the actor's turn (the trait roll's Clipped reset writes the same note). */
const writeNote = (actor: Actor.Implementation, note: Record<string, unknown>): Promise<void> =>
  foundryPort().writeActor(actor.uuid, (turn) => turn.write({ flags: { [SYSTEM_ID]: note } }));

/** A world actor deleted since (a combat and its actors removed together) is not written to; a token's actor lives with its token. */
const stillThere = (a: Actor.Implementation): boolean => a.isToken || game.actors?.has(a.id!) === true;

/**
 * One chat note for the combat's end, when lapses were applied (Fudge §4.52 (4)): a line per
 * lapse, each led by the actor's name, so the GM reads the whole battle's end in one card. Posted
 * by the active GM's client in the GM's chat mode, like the other notes the GM's client posts.
 */
async function postBattleEndNote(combatId: string, entries: BattleEndEntry[]): Promise<void> {
  const context = battleEndNote(entries);
  if (!context) return;
  await templatesReady();
  const content = await foundry.applications.handlebars.renderTemplate(
    systemPath(TEMPLATES.battleEnd),
    context as never,
  );
  await ChatMessage.create(
    withRollMode({
      content: `<div class="fudge-wounds fudge-card">${content}</div>`,
      speaker: { alias: game.i18n!.localize("FUDGE.BattleEnd.Speaker") },
      flags: { [SYSTEM_ID]: { battleEnd: { combatId } } },
    }) as never,
  );
}

async function onTurnStart(combatant: Combatant.Implementation): Promise<void> {
  const actor = combatant.actor as Actor.Implementation | null;
  if (!actor) return;
  const rules = worldRules();
  const derived = derivedOf(actor);
  const gutsPending =
    actor.type === "miniature" && ((actor.system as unknown as MiniatureData).gutsState?.pending.length ?? 0) > 0;
  for (const task of turnStartTasks({
    preset: rules.preset,
    actorType: actor.type,
    status: derived?.status ?? null,
    gutsPending,
  })) {
    if (task.kind === "nearDeathGuts")
      await (flows.loadedClicks() ?? (await flows.loadClicks())).nearDeathTurn(foundryPort(), actor.uuid);
    else if (task.kind === "noteClipped") await writeNote(actor, { [FLAG_CLIPPED]: true });
    else if (task.kind === "gutsRecheck")
      await (flows.loadedClicks() ?? (await flows.loadClicks())).runGutsRechecks(
        foundryPort(),
        actor.uuid,
        combatTurn(combatant.combat?.round),
      );
    else if (task.kind === "noteStun") await noteStun(combatant);
  }
}

/**
 * Fudge §4.62: the stun in force as this combatant's turn begins, noted on the combat (which only
 * GMs may write) so that the turn's end counts down that stun and not one taken during the turn.
 */
async function noteStun(combatant: Combatant.Implementation): Promise<void> {
  const combat = combatant.combat as Combat.Implementation | null;
  const actor = combatant.actor as Actor.Implementation | null;
  const snap = actor ? stunInForce(plainActor(actor), worldRules()) : null;
  if (!combat || !snap) return;
  await combat.setFlag(
    SYSTEM_ID as never,
    STUN_NOTE_FLAG as never,
    { combatantId: combatant.id, round: combat.round, ...snap } as never,
  );
}

/**
 * Fudge §4.62: the turn of a stunned combatant ends — his stun counts down one round
 * (src/system/combat.ts turnEndStunHealing). `ended`: the combat is gone (its note is read, not cleared).
 */
async function countDownStun(combatant: Combatant.Implementation, round: number, ended = false): Promise<void> {
  const combat = combatant.combat as Combat.Implementation | null;
  const actor = combatant.actor as Actor.Implementation | null;
  if (!combat) return;
  const note = combat.getFlag(SYSTEM_ID as never, STUN_NOTE_FLAG as never) as
    { combatantId?: unknown; round?: unknown } | undefined;
  if (!note || note.combatantId !== combatant.id || note.round !== round) return;
  if (!ended) await combat.update(toCore({ flags: { [SYSTEM_ID]: { [`-=${STUN_NOTE_FLAG}`]: null } } }) as never);
  if (!actor || !stillThere(actor)) return;
  const atStart = readStunSnapshot(note);
  try {
    // Decided from the live track in the actor's turn of the write queue (after any Apply queued before it).
    await (flows.loadedClicks() ?? (await flows.loadClicks())).stunCountdown(foundryPort(), actor.uuid, atStart);
  } catch (e) {
    reportError(e, actor.name);
  }
}

/**
 * Fudge §4.64 "nobody becomes Near Death unless they began the round Incapacitated": as a round
 * starts, the active GM's client records on the combat which combatants are Incapacitated or worse
 * (from their live tracks). Apply reads it for the defender (tableRoundStart); nothing on a card does.
 */
async function recordRoundStart(combat: Combat.Implementation, round: number): Promise<void> {
  if (worldRules().preset !== "fudge") return;
  const combatants = combat.combatants.contents
    .map((c) => c.actor as Actor.Implementation | null)
    .filter((a): a is Actor.Implementation => !!a)
    .map((a) => ({ ref: a.uuid, status: derivedOf(a)?.status ?? null }));
  await combat.setFlag(SYSTEM_ID as never, ROUND_START_FLAG as never, roundStartRecord(round, combatants) as never);
}

async function onTurnEnd(combatant: Combatant.Implementation, round: number, ended = false): Promise<void> {
  await countDownStun(combatant, round, ended);
  const actor = combatant.actor as Actor.Implementation | null;
  if (!actor || !stillThere(actor)) return;
  const noted = actor.getFlag(SYSTEM_ID as never, FLAG_CLIPPED as never) === true;
  const type = turnEndHealing(worldRules().preset, noted, derivedOf(actor)?.status ?? null);
  if (noted) await writeNote(actor, { [`-=${FLAG_CLIPPED}`]: null });
  if (type) await heal(actor, type);
}

/**
 * Turn effects through v13's Combat lifecycle (FOUNDRY-V13.md "Combat"): core calls these on the
 * active GM's client only, when the turn moves forward (or the combatant at the same index
 * changes); stepping back calls nothing. A combatant passed over (`context.skipped`) had no turn:
 * nothing starts or ends for it.
 */
export class FudgeCombat extends Combat {
  protected override async _onStartTurn(
    combatant: Combatant.Implementation,
    context: Combat.TurnEventContext,
  ): Promise<void> {
    await super._onStartTurn(combatant, context);
    if ((context as { skipped?: boolean }).skipped || !isActiveGM()) return;
    await onTurnStart(combatant);
  }
  protected override async _onEndTurn(
    combatant: Combatant.Implementation,
    context: Combat.TurnEventContext,
  ): Promise<void> {
    await super._onEndTurn(combatant, context);
    if ((context as { skipped?: boolean }).skipped || !isActiveGM()) return;
    await onTurnEnd(combatant, context.round);
  }
  protected override async _onStartRound(context: Combat.RoundEventContext): Promise<void> {
    await super._onStartRound(context);
    if (!isActiveGM()) return;
    try {
      await recordRoundStart(this as unknown as Combat.Implementation, context.round);
    } catch (e) {
      reportError(e);
    }
  }
}

/** Scenes whose end is being handled on this client (the same deactivation may arrive twice). */
const endingScenes = new Set<string>();

/** The battle is over (src/system/flows/battle.ts): the turn in progress ends, its lapses and their note, then the world's healing at combat end. */
async function endBattle(
  combatId: string,
  actors: Actor.Implementation[],
  lastTurn: { combatant: Combatant.Implementation; round: number } | null,
): Promise<void> {
  if (lastTurn)
    try {
      await onTurnEnd(lastTurn.combatant, lastTurn.round, true);
    } catch (e) {
      reportError(e);
    }
  const f = flows.loadedClicks() ?? (await flows.loadClicks());
  const refs = actors.filter(stillThere).map((a) => a.uuid);
  await f.endBattle(foundryPort(), refs, (entries) => postBattleEndNote(combatId, entries));
}

/** FATE: Hurt lasts for the scene — when the GM activates another scene, the old one has ended. */
export function onSceneUpdate(scene: Scene.Implementation, change: { active?: unknown }): void {
  // v13 activates scenes in one batch: `updateScene` fires on every client for both scenes;
  // the previously active one gets `active: false`. Only the active GM acts.
  if (!isActiveGM() || change.active !== false) return;
  const id = String(scene.id);
  if (endingScenes.has(id)) return;
  endingScenes.add(id);
  endScene(scene)
    .finally(() => endingScenes.delete(id))
    .catch((e) => reportError(e)); // a hook cannot wait: a failed heal is reported
}

/**
 * Fudge §4.51 Light Wound: an open sheet shows the penalty for in or out of combat; redraw a
 * combatant's sheet (on every client) when that changes — its combat starts, ends, or it joins or leaves one.
 */
function redrawSheetOf(actor: Actor.Implementation | null | undefined): void {
  const sheet = actor?.sheet as { rendered?: boolean; render(o?: object): Promise<unknown> } | null | undefined;
  if (sheet?.rendered) sheet.render().catch((e) => reportError(e)); // a hook cannot wait: a failed render is reported
}
const redrawCombatants = (combat: Combat.Implementation): void =>
  combat.combatants.contents.forEach((c) => redrawSheetOf(c.actor as Actor.Implementation | null));

export function registerCombatHooks(): void {
  (CONFIG.Combat as unknown as { documentClass: unknown }).documentClass = FudgeCombat;
  Hooks.on("updateCombat", (combat, change) => {
    // Started (round ≥ 1) or back to not started: only then does "in combat" change.
    const round = (change as { round?: unknown }).round;
    if (typeof round === "number" && round <= 1) redrawCombatants(combat as Combat.Implementation);
  });
  Hooks.on("createCombatant", (c) => redrawSheetOf(c.actor as Actor.Implementation | null));
  // A combat's turns and its end run flows of the clicks chunk: loaded with the combat, its hooks act at once.
  Hooks.on("createCombat", () => {
    if (isActiveGM()) flows.loadClicks().catch((e) => reportError(e));
  });
  Hooks.on("deleteCombatant", (c) => redrawSheetOf(c.actor as Actor.Implementation | null));
  Hooks.on("deleteCombat", (combat) => {
    redrawCombatants(combat as Combat.Implementation);
    if (!isActiveGM()) return;
    const actors = combat.combatants.contents
      .map((c) => c.actor as Actor.Implementation | null)
      .filter((a): a is Actor.Implementation => !!a);
    // The turn in progress ends with the combat: core deletes it without `_onEndTurn` (v13
    // Combat#_onDelete calls only `_onExit`), so its stun countdown and used-up Clipped happen here.
    // Core has cleared `turn` by now (Combat#_onDelete): the turn in progress is `current`'s.
    const now = (combat as unknown as { current?: { round?: number; combatantId?: string | null } }).current;
    const last = combat.started && now?.combatantId ? combat.combatants.get(now.combatantId) : undefined;
    const lastTurn = last ? { combatant: last, round: now?.round ?? combat.round } : null;
    endBattle(String(combat.id), actors, lastTurn).catch((e) => reportError(e)); // a hook cannot wait: a failure is reported
  });
  Hooks.on("updateScene", (scene, change) =>
    onSceneUpdate(scene as Scene.Implementation, change as { active?: unknown }),
  );
}

/** Ends a scene for every actor with a token on it (also offered as game.system.api.endScene). */
export async function endScene(scene: Scene.Implementation | null = canvas?.scene ?? null): Promise<void> {
  const type = sceneEndHealing(worldRules());
  if (!type || !scene) return;
  const seen = new Set<string>();
  for (const t of scene.tokens.contents) {
    const a = t.actor as Actor.Implementation | null;
    if (!a || seen.has(a.uuid)) continue;
    seen.add(a.uuid);
    await heal(a, type);
  }
}
