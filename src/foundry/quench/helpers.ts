/** What the Quench batches share: Quench's batch API as they use it, scratch documents deleted afterwards, and small waits and card helpers. */
import { type PresetId } from "../../rules";
import * as actions from "../../system/actions";
import { rollAttack } from "../../system/rolling";
import { plainActor, worldRules, type DerivedActor } from "../bridge";
import { clickCardAction, postAttackCard } from "../chat";
import { foundryRoller } from "../dice";
import { userRef } from "../foundry-util";
import { SYSTEM_ID } from "../../system/registry";
import type { WorldRules } from "../../system/data";

/** The parts of Quench's batch context the batches use (Mocha's BDD interface and Chai). */
export interface QuenchBatchContext {
  describe(name: string, fn: () => void): void;
  it(name: string, fn: () => Promise<void> | void): void;
  before(fn: () => Promise<void> | void): void;
  after(fn: () => Promise<void> | void): void;
  assert: {
    ok(v: unknown, msg?: string): void;
    equal(a: unknown, b: unknown, msg?: string): void;
    notEqual(a: unknown, b: unknown, msg?: string): void;
    deepEqual(a: unknown, b: unknown, msg?: string): void;
    isAbove(a: number, b: number, msg?: string): void;
  };
}
export interface QuenchLike {
  registerBatch(
    key: string,
    fn: (context: QuenchBatchContext) => void,
    options?: { displayName?: string; preSelected?: boolean },
  ): void;
}

export const PREFIX = "[Quench] ";
type Deletable = { delete(): Promise<unknown>; id: string | null };

/** Everything a batch creates, deleted in reverse order afterwards; the preset restored. */
export class Scratch {
  private made: Deletable[] = [];
  private preset: PresetId | null = null;
  /** World rule settings changed by the batch, with the value each had before (restored in cleanup). */
  private rules = new Map<string, unknown>();
  track<T>(doc: T): T {
    if (doc) this.made.push(doc as unknown as Deletable);
    return doc;
  }
  async actorFromPack(pack: string, name: string): Promise<Actor.Implementation> {
    const p = (
      game.packs as unknown as Map<
        string,
        { getDocuments(): Promise<{ name: string; toObject(): Record<string, unknown> }[]> }
      >
    ).get(`${SYSTEM_ID}.${pack}`);
    if (!p) throw new Error(`pack ${SYSTEM_ID}.${pack} is missing`);
    const doc = (await p.getDocuments()).find((d) => d.name === name);
    if (!doc) throw new Error(`${name} is not in ${pack}`);
    const { _id, ...data } = doc.toObject();
    void _id;
    return this.track(
      (await Actor.create({ ...data, name: PREFIX + String(data.name) } as never)) as Actor.Implementation,
    );
  }
  /** Posts `attacker`'s attack on `defender` with his first weapon, its dice real Foundry Rolls attached to the card. */
  async postAttack(attacker: Actor.Implementation, defender: Actor.Implementation) {
    const weapon = attacker.items.contents.find((i) => i.type === "weapon") ?? null;
    const { card, rolls } = await rollAttack(
      (dice) =>
        actions.startAttack(
          plainActor(attacker),
          weapon?.id ?? null,
          [plainActor(defender)],
          {},
          dice,
          worldRules(),
          userRef(),
        ),
      foundryRoller,
    );
    const message = this.track(await postAttackCard(attacker, card, rolls));
    return { card, rolls, message };
  }
  async setPreset(preset: PresetId): Promise<void> {
    this.preset ??= worldRules().preset;
    await game.settings!.set(SYSTEM_ID as never, "preset" as never, preset as never);
  }
  /** Sets one world rule setting (WorldRules key, e.g. "fudge"), remembering its value for cleanup. */
  async setRule<K extends keyof WorldRules>(key: K, value: WorldRules[K]): Promise<void> {
    if (!this.rules.has(key))
      this.rules.set(key, structuredClone(game.settings!.get(SYSTEM_ID as never, key as never)));
    await game.settings!.set(SYSTEM_ID as never, key as never, value as never);
  }
  async cleanup(): Promise<void> {
    for (const d of this.made.reverse()) {
      const live = d.id ? (d as unknown as { collection?: { get(id: string): unknown } }).collection?.get(d.id) : null;
      if (live !== undefined && live !== null)
        await d.delete().catch((e) => console.warn(`${SYSTEM_ID} | quench cleanup`, e));
    }
    this.made = [];
    for (const [key, value] of [...this.rules].reverse())
      await game.settings!.set(SYSTEM_ID as never, key as never, value as never);
    this.rules.clear();
    if (this.preset) await game.settings!.set(SYSTEM_ID as never, "preset" as never, this.preset as never);
    this.preset = null;
  }
}

/** A batch with one test on the pack's Theodora in a Fudge world (the scratch documents deleted afterwards). */
export function theodoraBatch(
  quench: QuenchLike,
  key: string,
  displayName: string,
  title: string,
  test: (theodora: Actor.Implementation, s: Scratch, assert: QuenchBatchContext["assert"]) => Promise<void>,
): void {
  quench.registerBatch(
    `${SYSTEM_ID}.${key}`,
    ({ it, before, after, assert }) => {
      const s = new Scratch();
      let theodora: Actor.Implementation;
      before(async () => {
        await s.setPreset("fudge");
        theodora = await s.actorFromPack("characters", "Theodora");
      });
      after(() => s.cleanup());
      it(title, () => test(theodora, s, assert));
    },
    { displayName },
  );
}

/** A scratch world with the Fudge preset and Leroy and Theodora (Fudge §4.55) from the packs, cleaned up after the batch. */
export function fudgeDuel(ctx: Pick<QuenchBatchContext, "before" | "after">): {
  s: Scratch;
  duel: { leroy: Actor.Implementation; theodora: Actor.Implementation };
} {
  const s = new Scratch();
  const duel = {} as { leroy: Actor.Implementation; theodora: Actor.Implementation };
  ctx.before(async () => {
    await s.setPreset("fudge");
    duel.leroy = await s.actorFromPack("characters", "Leroy");
    duel.theodora = await s.actorFromPack("characters", "Theodora");
  });
  ctx.after(() => s.cleanup());
  return { s, duel };
}

export const derived = (a: Actor.Implementation) => (a.system as unknown as { derived: DerivedActor }).derived;
/** The track as a player reads it (open boxes, level, condition): an unhurt track may be stored as null or as empty marks. */
export const trackState = (a: Actor.Implementation) => {
  const d = derived(a);
  return JSON.stringify([d.openBoxes, d.status?.levelKey ?? null, d.condition, d.status?.effects ?? []]);
};

/** Waits until `check` holds (the active GM's hooks run after the update returns), or the timeout. */
export async function until(check: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** One target of an attack card as the batches read it from the live message. */
export type QuenchCardTarget = {
  actorId: string;
  defend: string;
  gmLevel?: string;
  dice: Record<string, number[]>;
  situation?: Record<string, unknown>;
  resolution: { outcome: string; wound: unknown; woundKey: string | null; numbers: Record<string, number> } | null;
  applied: { undone: boolean }[];
  differs?: boolean;
};
/** Target `i` of the card in message `id`, as stored now. */
export const cardTarget = (id: string, i = 0): QuenchCardTarget =>
  (game.messages!.get(id)!.system as unknown as { targets: QuenchCardTarget[] }).targets[i];

/**
 * Posts `attacker`'s attacks on `defender` (real Rolls; the defence rolled from the card when it
 * has one) until the target's entry satisfies `want`; returns that card's message id. The dice are
 * random in a live world: the batches wait for the card they need instead of relying on one roll.
 */
export async function defendedCard(
  s: Scratch,
  attacker: Actor.Implementation,
  defender: Actor.Implementation,
  want: (t: QuenchCardTarget) => boolean,
  tries = 30,
): Promise<string> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const { card, message } = await s.postAttack(attacker, defender);
    const id = message.id!;
    if (cardTarget(id).defend === "pending") {
      await clickCardAction(game.messages!.get(id) as ChatMessage.Implementation, "defend", card.targets[0].actorId);
      await until(() => cardTarget(id).defend === "rolled");
    }
    if (want(cardTarget(id))) return id;
  }
  throw new Error(`no such card in ${tries} attacks`);
}
