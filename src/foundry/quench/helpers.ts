/** What the Quench batches share: Quench's batch API as they use it, scratch documents deleted afterwards, and small waits and card helpers. */
import { applyWound, type PresetId } from "../../rules";
import * as flows from "../../system/flows";
import { trackFor } from "../../system/combatant";
import { changeActor, plainActor, worldRules, type DerivedActor } from "../bridge";
import { clickCardAction } from "../chat";
import { foundryPort, storedCardOf } from "../port";
import { SYSTEM_ID } from "../../system/registry";
import type { WorldRules } from "../../system/data";
import { WOUND_BAR_ATTRIBUTE } from "../token";

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
  /** Posts `attacker`'s attack on `defender` with his first weapon, its dice real Foundry Rolls attached to the card (the Attack flow after its dialog). */
  async postAttack(attacker: Actor.Implementation, defender: Actor.Implementation) {
    const weapon = attacker.items.contents.find((i) => i.type === "weapon") ?? null;
    const id = await postAttackOf(attacker, weapon?.id ?? null, [defender], []);
    const message = this.track(game.messages!.get(id) as ChatMessage.Implementation);
    const card = flows.cardOf(storedCardOf(message));
    const rolls = (message as unknown as { rolls: Roll[] }).rolls;
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

/**
 * `attacker`'s attack with `weaponId` on `targets`, each with the table's measures, posted as a card
 * with no dialog (the sheet's Attack flow after its dialog: src/system/flows/attack.ts postAttack).
 * `roll` replaces the port's dice (a batch counting them). Resolves to the message id.
 */
export function postAttackOf(
  attacker: Actor.Implementation,
  weaponId: string | null,
  targets: Actor.Implementation[],
  measured: Parameters<typeof flows.postAttack>[6],
  roll?: flows.HostPort["roll"],
  situation: Record<string, unknown> = {},
): Promise<string> {
  const port = foundryPort();
  const rules = port.rules();
  return flows.postAttack(
    roll ? { ...port, roll } : port,
    plainActor(attacker),
    weaponId,
    targets.map((t) => ({ ref: t.uuid })),
    targets.map((t) => plainActor(t)),
    situation,
    measured,
    rules,
  );
}

export type Stun = { effect: string; rounds: number } | null;
export const stunOf = (a: Actor.Implementation): Stun =>
  (a.toObject().system as { woundTrack: { state: { stun?: Stun } | null } }).woundTrack.state?.stun ?? null;
export const effects = (a: Actor.Implementation) => derived(a).status?.effects ?? [];

/**
 * Marks a wound as the rules core gives it (a stun attack's: `{level, stun: true}`), in the actor's
 * write lane as Apply writes (a deleted combat's end-of-combat healing may still be queued there).
 */
export async function wound(a: Actor.Implementation, w: { level: string; stun?: boolean }): Promise<void> {
  await changeActor(a, (doc) => ({
    system: { woundTrack: { "==state": applyWound(trackFor(doc, worldRules()), w).track.state } },
  }));
}

/** A scratch combat (no scene), Leroy (initiative 10) acting before Theodora (5), started. */
export async function fight(
  s: { track<T>(d: T): T },
  leroy: Actor.Implementation,
  theodora: Actor.Implementation,
): Promise<Combat.Implementation> {
  const combat = s.track((await Combat.create({ scene: null, active: true } as never)) as Combat.Implementation);
  await combat.createEmbeddedDocuments("Combatant", [
    { actorId: leroy.id, initiative: 10 },
    { actorId: theodora.id, initiative: 5 },
  ] as never);
  await combat.startCombat();
  return combat;
}

type Viewable = { id: string | null; view(): Promise<unknown> };
export type Shape = { shape: { height: number }; fillStyle: { color: number; alpha: number; visible: boolean } };
export type Bar = { visible: boolean; geometry: { graphicsData: Shape[] } };
export type TokenObject = {
  bars: { visible: boolean; bar1: Bar };
  controlled: boolean;
  hover: boolean;
  _onHoverIn(e: Event): void;
  _onHoverOut(e: Event): void;
  control(): unknown;
  release(): unknown;
};
export type Hud = { element: HTMLElement | null; bind(o: unknown): Promise<unknown>; close(): Promise<unknown> };

export const MODES = { NONE: 0, CONTROL: 10, OWNER_HOVER: 20, HOVER: 30, OWNER: 40, ALWAYS: 50 } as const;

/** A scratch scene with the pack's Leroy on it (bar 1: the wound track), viewed by the GM for the batch. */
export function leroyOnAScene(ctx: Pick<QuenchBatchContext, "before" | "after">) {
  const s = new Scratch();
  const the = {} as { leroy: Actor.Implementation; scene: Scene.Implementation };
  let viewed: Viewable | null = null;
  ctx.before(async () => {
    await s.setPreset("fudge");
    the.leroy = await s.actorFromPack("characters", "Leroy");
    the.scene = s.track(
      (await Scene.create({
        name: "[Quench] Wound bar",
        width: 1000,
        height: 1000,
        padding: 0,
        grid: { size: 100, distance: 1, units: "yd" },
        tokens: [
          {
            name: the.leroy.name,
            actorId: the.leroy.id,
            actorLink: true,
            x: 300,
            y: 300,
            displayBars: MODES.ALWAYS,
            bar1: { attribute: WOUND_BAR_ATTRIBUTE },
          },
        ],
      } as never)) as Scene.Implementation,
    );
    viewed = (canvas?.scene as unknown as Viewable | null) ?? null;
    await (the.scene as unknown as Viewable).view();
  });
  ctx.after(async () => {
    if (viewed && viewed.id !== the.scene?.id && game.scenes!.has(viewed.id!)) await viewed.view();
    await s.cleanup();
  });
  const tokenDoc = () =>
    the.scene.tokens.contents[0] as unknown as { update(d: object): Promise<unknown>; object: unknown };
  const token = () => tokenDoc().object as TokenObject | null;
  /** Marks (or clears) Leroy's first Hurt box (one actor update), then lets the canvas draw it. */
  const toggleHurt = async () => {
    await flows.toggleBox(foundryPort(), the.leroy.uuid, "hurt:0");
    await frames();
  };
  /** Sets the token's display mode, then lets the canvas draw it. */
  const setMode = async (mode: number) => {
    await tokenDoc().update({ displayBars: mode });
    await frames();
  };
  return { s, the, tokenDoc, token, toggleHurt, setMode };
}

/** Render flags are applied on the canvas's next frames: wait for them before hovering or checking. */
export const frames = () => new Promise((r) => setTimeout(r, 150));
