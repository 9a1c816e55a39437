/**
 * The one place where Foundry documents become the plain shapes of src/system/data.ts and
 * back. Everything rules-related is computed by src/system / src/rules from these plain docs.
 */
import { errorView } from "../system/error-text";
import { isRulesError, renderTrack, trackStatus, type Track, type TrackRender, type TrackStatus } from "../rules";
import { parseCombatant, defensiveFactor, offensiveFactor } from "../rules/fudge";
import { equippedOf, fudgeCombatant, miniatureNumbers, trackFor } from "../system/combatant";
import type { ActorDoc, ItemDoc, WorldRules } from "../system/data";
import { worldRulesFrom } from "../system/data";
import { initiativeTrait } from "../system/initiative";
import { inStartedCombat } from "../system/combat";
import { coreActorUpdate } from "../system/updates";
import { actorLane, writeQueue } from "./write-queue";
import { writeGmRecords } from "./gm-records";
import { updateOperators } from "./v14";
import { SYSTEM_ID } from "../system/registry";

/** The world rules from the settings (defaults for anything unset or broken). */
export function worldRules(): WorldRules {
  return worldRulesFrom((key) => game.settings!.get(SYSTEM_ID as never, key as never));
}

type AnyDoc = {
  _id: string | null;
  name: string;
  type: string;
  img?: string | null;
  system: unknown;
  uuid?: string;
  ownership?: unknown;
};

/** A plain ItemDoc from an Item (source data: what the rules read is stored data). */
export function plainItem(item: AnyDoc & { toObject?: (source?: boolean) => unknown }): ItemDoc {
  const src = (item.toObject ? item.toObject(true) : item) as AnyDoc;
  return {
    _id: String(item._id),
    name: item.name,
    type: item.type as ItemDoc["type"],
    img: item.img ?? undefined,
    system: src.system as ItemDoc["system"],
  };
}

/** The actor is in a started combat of this world (Fudge §4.51 Light Wound: rolls take the combat penalty). */
export function actorInCombat(actor: Actor.Implementation): boolean {
  const combats = (game.combats?.contents ?? []).map((c) => ({
    started: c.started,
    combatants: c.combatants.contents.map((b) => ({
      actorId: b.actorId ?? null,
      tokenId: b.tokenId ?? null,
      linked: !b.tokenId || b.token?.actorLink !== false,
    })),
  }));
  return inStartedCombat({ id: String(actor.id), tokenId: actor.isToken ? (actor.token?.id ?? null) : null }, combats);
}

/** A plain ActorDoc from an Actor, with its items and ownership. */
export function plainActor(actor: Actor.Implementation): ActorDoc {
  const src = actor.toObject(true) as unknown as {
    system: unknown;
    ownership: Record<string, number>;
    flags?: Record<string, unknown>;
  };
  return {
    _id: String(actor.id),
    uuid: actor.uuid,
    name: actor.name,
    type: actor.type as ActorDoc["type"],
    img: actor.img ?? undefined,
    system: src.system as ActorDoc["system"],
    items: actor.items.contents.map((i) => plainItem(i as unknown as AnyDoc & { toObject: (s?: boolean) => unknown })),
    ownership: src.ownership,
    flags: src.flags ?? {},
  };
}

// ─── Derived data (prepareDerivedData) ────────────────────────────────────────────────

/** What prepareDerivedData adds to an actor's system: all of it computed by src/system + src/rules. */
export interface DerivedActor {
  track: Track | null;
  status: TrackStatus | null;
  penalty: number;
  condition: string;
  /** Token bar: open boxes / markable boxes of the track. */
  openBoxes: { value: number; max: number };
  /**
   * Damage factors: Fudge ODF (first equipped weapon, or unarmed) and DDF (against an ordinary
   * weapon), Fudge §4.54; Miniatures MODF / RODF / DDF / HDDF with wound penalties applied
   * (Miniatures: The datacard). null where the preset or the actor has none.
   */
  factors: { odf: number | null; ddf: number | null; modf: number | null; rodf: number | null; hddf: number | null };
  /** The trait the initiative roll adds (`@derived.initiative`, src/system/initiative.ts). */
  initiative: number;
  /** A stored state that does not fit the track config: the sheet shows it instead of crashing. */
  error: { key: string; params: Record<string, string | number> } | null;
}

const noFactors = (): DerivedActor["factors"] => ({ odf: null, ddf: null, modf: null, rodf: null, hddf: null });

/** The actor's damage factors, from src/system's combatant mapping and the rules core. */
export function factorsOf(doc: ActorDoc, rules: WorldRules): DerivedActor["factors"] {
  const f = noFactors();
  try {
    if (doc.type === "miniature") {
      const n = miniatureNumbers(doc, rules);
      Object.assign(f, { modf: n.modf, rodf: n.rodf, ddf: n.ddf, hddf: n.hddf });
    } else if (rules.preset === "fudge") {
      const a = doc as ActorDoc<"character" | "npc">;
      const weapon = equippedOf(a, "weapon")[0] ?? null;
      const attacker = parseCombatant(fudgeCombatant(a, weapon, rules), "actor");
      const plain = parseCombatant(fudgeCombatant(a, null, rules), "actor");
      f.odf = offensiveFactor(attacker, rules.fudge).total;
      f.ddf = defensiveFactor(plain, plain.weapon, rules.fudge).total;
    }
  } catch (e) {
    if (!isRulesError(e)) throw e;
  }
  return f;
}

/** Open (unmarked, markable) and markable boxes of a track render (Fudge §4.57 boxes, FATE boxes, Volt rows). */
export function openBoxesOf(render: TrackRender): { value: number; max: number } {
  let value = 0;
  let max = 0;
  for (const row of render.rows)
    for (const b of row.boxes) {
      if (b.disabled) continue;
      max++;
      if (!b.marked) value++;
    }
  return { value, max };
}

export function deriveFromDoc(doc: ActorDoc, rules: WorldRules): DerivedActor {
  try {
    const track = trackFor(doc, rules);
    const status = trackStatus(track);
    return {
      track,
      status,
      penalty: status.penalty,
      condition: status.condition,
      openBoxes: openBoxesOf(renderTrack(track)),
      factors: factorsOf(doc, rules),
      initiative: initiativeTrait(doc, rules.preset, status.penalty),
      error: null,
    };
  } catch (e) {
    if (!isRulesError(e)) throw e;
    return {
      track: null,
      status: null,
      penalty: 0,
      condition: "able",
      openBoxes: { value: 0, max: 0 },
      factors: noFactors(),
      initiative: initiativeTrait(doc, rules.preset, 0),
      error: errorView(e),
    };
  }
}

export function deriveActorSystem(actor: Actor.Implementation): DerivedActor {
  return deriveFromDoc(plainActor(actor), worldRules());
}

/**
 * Persists a src/system actor update in the running core's terms (src/system/updates.ts
 * coreActorUpdate): a new wound-track state replaces the stored one exactly.
 */
export async function updateActor(
  actor: Actor.Implementation,
  update: { system?: unknown; flags?: unknown; gmRecords?: Record<string, unknown> },
): Promise<void> {
  const { gmRecords, ...rest } = update;
  // The GM's own record (the automatic death's) goes to the GM's store: a new record before the
  // track is written (the sheet re-drawn for the new track finds it), a removal after.
  const removes = !!gmRecords && Object.keys(gmRecords).every((k) => k.startsWith("-="));
  if (gmRecords && !removes) await writeGmRecords(actor.uuid, gmRecords);
  const stored = (actor.toObject(true) as unknown as { system: unknown }).system;
  // A write of the GM's records alone (an EP award) leaves the actor as it is.
  if (rest.system !== undefined || rest.flags !== undefined)
    await actor.update(coreActorUpdate(stored, rest as { system: unknown }, updateOperators()) as never);
  if (gmRecords && removes) await writeGmRecords(actor.uuid, gmRecords);
}

/**
 * Changes an actor in its turn: `compute` reads the actor as it is once every earlier write to
 * it on this client has landed, and its update (or null: nothing to write) is saved before the
 * next write starts. Sheets, combat hooks and card actions all write wound tracks through this.
 */
export async function changeActor<
  R extends { system: unknown; flags?: unknown; gmRecords?: Record<string, unknown> } | null,
>(actor: Actor.Implementation, compute: (doc: ActorDoc) => R): Promise<R> {
  return writeQueue(actorLane(actor), async () => {
    const update = compute(plainActor(actor));
    if (update) await updateActor(actor, update);
    return update;
  });
}
