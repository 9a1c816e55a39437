/**
 * One scripted table run per preset, played by the GM with seeded dice through the playground in
 * Chromium (tests/browser/parity.test.ts) and through the v13 host in vitest
 * (tests/foundry-host/parity.test.ts): the same clicks on the same buttons of the same templates,
 * each running the same flow (src/system/flows). Both must end with the actors' system data, wound
 * logs and card data written once in tests/parity/expected/<preset>.json. Only the steps a preset
 * has: no Defend in Miniatures or Volt.
 *
 * The attacker has no token on the host's scene (so nothing is measured there, as in the
 * playground, which has no tokens); its targets do (a token is what Foundry targets).
 */
import type { PresetId } from "../../src/rules";

export type Step =
  /** The GM's targets, by actor name (replacing the previous ones). */
  | { target: string[] }
  /**
   * A button on `sheet`'s actor sheet: its `data-action` and `data-*`; `dialog`: a dialog opens and
   * these fields are filled before its OK (an empty object: its defaults; a checkbox: "true" ticks
   * it); "confirm": a yes/no.
   */
  | { sheet: string; action: string; data?: Record<string, string>; dialog?: Record<string, string> | "confirm" }
  /** A sheet field of `field`'s actor changed to `value` (`name`: the input's name). */
  | { field: string; name: string; value: string }
  /**
   * A button of the `card`th attack card (0: the first), in `target`'s section (none: the card's own);
   * `dialog`: the dialog it opens (the defender's Defend), these fields filled before its OK.
   */
  | {
      card: number;
      action: string;
      target?: string;
      gmLevel?: string;
      dialog?: Record<string, string>;
      /** The button's `data-*` (a Fudge Point's side and direction). */
      data?: Record<string, string>;
    }
  /** A button of the `rollCard`th trait-roll card (0: the first) and its `data-*`: an opposed roll's other side, a Fudge Point. */
  | { rollCard: number; action: string; data?: Record<string, string> }
  /** World rules changed by the GM: these fields of one group of WorldRules (a world setting). */
  | { rules: string; value: Record<string, unknown> };

export interface ParityRun {
  preset: PresetId;
  seed: number;
  /** The actors of the run (the host seeds these from the pack sources; the playground has them all). */
  actors: string[];
  steps: Step[];
}

const fudge: ParityRun = {
  preset: "fudge",
  seed: 7,
  actors: ["Leroy", "Theodora"],
  steps: [
    { target: ["Theodora"] },
    { sheet: "Leroy", action: "attack", data: { itemId: "heY0Z3tNTjFC9mE2" }, dialog: {} },
    { card: 0, action: "defend", target: "Theodora", dialog: { allOutDefense: "on", modifier: "-1" } },
    { card: 0, action: "apply", target: "Theodora" },
    { card: 0, action: "undo", target: "Theodora" },
    { card: 0, action: "apply", target: "Theodora" },
    { sheet: "Leroy", action: "rollTrait", data: { trait: "attributes.strength" }, dialog: {} },
    {
      sheet: "Theodora",
      action: "heal",
      data: { heal: "roll" },
      dialog: { healer: "JZkA2QvqOsAr8s9b:71eMgBWgE8EWwrCZ" },
    },
    { sheet: "Theodora", action: "heal", data: { heal: "natural" }, dialog: { weeks: "2" } },
    { sheet: "Theodora", action: "heal", data: { heal: "scratches" } },
    { sheet: "Leroy", action: "toggleWoundBox", data: { ref: "hurt:0" } },
    { sheet: "Leroy", action: "killActor", dialog: "confirm" },
    { sheet: "Leroy", action: "undoKill", dialog: "confirm" },
    // A custom track: the standard levels as custom ones, a sixth level added and removed again.
    { field: "Leroy", name: "system.woundTrack.preset", value: "custom" },
    { sheet: "Leroy", action: "addCustomLevel" },
    { sheet: "Leroy", action: "removeCustomLevel", data: { index: "5" } },
    { field: "Leroy", name: "system.attributes.strength", value: "2" },
    // The GM's ruling (Fudge §4.55): GM judgement, with the Situational 4dF rolled after his pick.
    { rules: "fudge", value: { woundMode: "gmJudgement", gmSituationalRoll: true } },
    { sheet: "Leroy", action: "attack", data: { itemId: "heY0Z3tNTjFC9mE2" }, dialog: {} },
    { card: 1, action: "defend", target: "Theodora", dialog: { allOutDefense: "off", modifier: "0" } },
    // Fudge §1.36 on the attack card: the attack roll one level up, refunded by its Undo, spent again; the ruling re-derives with it.
    { card: 1, action: "spendAttackFudgePoint", data: { side: "attacker", direction: "1" } },
    { card: 1, action: "undoAttackFudgePoint", target: "Theodora", data: { side: "attacker" } },
    { card: 1, action: "spendAttackFudgePoint", data: { side: "attacker", direction: "1" } },
    { card: 1, action: "applyJudgement", target: "Theodora", gmLevel: "hurt" },
    // Experience (Fudge §5.2): the GM awards EP, Strength is raised (Great → Superb, 8 × 3 EP), undone, raised again.
    { sheet: "Leroy", action: "awardExperience", dialog: { amount: "30", note: "The siege" } },
    { sheet: "Leroy", action: "spendExperience", dialog: { trait: "attr.strength", used: "true" } },
    { sheet: "Leroy", action: "undoAdvance", data: { entry: "ep0" }, dialog: "confirm" },
    { sheet: "Leroy", action: "spendExperience", dialog: { trait: "attr.strength", used: "true" } },
    // Fudge §3.5: an opposed roll against the target, whose side is rolled from the card.
    { sheet: "Leroy", action: "rollTrait", data: { trait: "attributes.strength" }, dialog: { opponent: "0" } },
    { rollCard: 1, action: "rollOpposed" },
    // Fudge §1.36: a Fudge Point moves Leroy's first roll one level up, is refunded by the card's Undo, spent again.
    { rollCard: 0, action: "spendRollFudgePoint", data: { direction: "1" } },
    { rollCard: 0, action: "undoRollFudgePoint" },
    { rollCard: 0, action: "spendRollFudgePoint", data: { direction: "1" } },
  ],
};

const miniatures: ParityRun = {
  preset: "miniatures",
  seed: 5,
  actors: ["Sir Knightly", "Brutas the Brute", "Yanni the Yeoman"],
  steps: [
    { target: ["Brutas the Brute"] },
    { sheet: "Sir Knightly", action: "attackAll", data: { kind: "melee" }, dialog: {} },
    { card: 0, action: "apply", target: "Brutas the Brute" },
    { target: ["Sir Knightly"] },
    { sheet: "Brutas the Brute", action: "attack", data: { itemId: "xbbiD46hlDMq5BDO" }, dialog: {} },
    { card: 1, action: "apply", target: "Sir Knightly" },
    { card: 1, action: "undo", target: "Sir Knightly" },
    { target: ["Brutas the Brute"] },
    { sheet: "Yanni the Yeoman", action: "gutsCheck", dialog: { reason: "charged", terrifying: "1" } },
    { sheet: "Sir Knightly", action: "rollTrait", data: { trait: "strength" }, dialog: {} },
    { sheet: "Brutas the Brute", action: "heal", data: { heal: "scratches" } },
    { sheet: "Yanni the Yeoman", action: "toggleWoundBox", data: { ref: "hurt:0" } },
  ],
};

const fate: ParityRun = {
  preset: "fate",
  seed: 7,
  actors: ["Leroy", "Theodora"],
  steps: [
    { target: ["Theodora"] },
    // FATE Clipped: Leroy's attack is his next action, and resets his box.
    { sheet: "Leroy", action: "toggleWoundBox", data: { ref: "clipped:0" } },
    { sheet: "Leroy", action: "attack", data: { itemId: "heY0Z3tNTjFC9mE2" }, dialog: {} },
    { card: 0, action: "defend", target: "Theodora", dialog: { modifier: "-1" } },
    { card: 0, action: "apply", target: "Theodora" },
    { card: 0, action: "undo", target: "Theodora" },
    { card: 0, action: "apply", target: "Theodora" },
    { sheet: "Theodora", action: "toggleWoundBox", data: { ref: "clipped:0" } },
    { sheet: "Theodora", action: "rollTrait", data: { trait: "attributes.strength" }, dialog: {} },
    { sheet: "Theodora", action: "heal", data: { heal: "endScene" } },
    { sheet: "Leroy", action: "heal", data: { heal: "consumeClipped" } },
  ],
};

const volt: ParityRun = {
  preset: "volt",
  seed: 4,
  actors: ["Leroy", "Theodora"],
  steps: [
    { target: ["Theodora"] },
    { sheet: "Leroy", action: "attack", data: { itemId: "heY0Z3tNTjFC9mE2" }, dialog: {} },
    { card: 0, action: "apply", target: "Theodora" },
    { card: 0, action: "undo", target: "Theodora" },
    { card: 0, action: "apply", target: "Theodora" },
    { sheet: "Theodora", action: "recover" },
    { sheet: "Theodora", action: "heal", data: { heal: "rest" } },
    // A box cycles empty → Stun → Injury: an Injury on row 8 to recover from.
    { sheet: "Theodora", action: "toggleWoundBox", data: { ref: "row-8" } },
    { sheet: "Theodora", action: "toggleWoundBox", data: { ref: "row-8" } },
    { sheet: "Theodora", action: "heal", data: { heal: "injuryRecovery" }, dialog: { medicalValue: "10" } },
    { sheet: "Leroy", action: "rollTrait", data: { trait: "volt.willpower" }, dialog: {} },
  ],
};

export const PARITY_RUNS: Record<PresetId, ParityRun> = { fudge, miniatures, fate, volt };

// ─── What is compared ──────────────────────────────────────────────────────────────────

/** A host's documents at the end of a run, as plain data. */
export interface RawWorld {
  actors: { _id: string; name: string; system: unknown; flags?: Record<string, unknown> }[];
  /** Chat messages in order: cards (`system`) and roll notes (their title key, lines and dice). */
  messages: {
    _id: string;
    type: string;
    system?: unknown;
    note?: { titleKey: string; lines: string[]; dice: unknown };
  }[];
  /** The GM's user id on this host. */
  gm: string;
}

const DROPPED = new Set(["at", "posted", "tokenId", "timestamp"]);

/**
 * A field at an empty default (null, "", false, [], {}): Foundry's data models fill these in for
 * a field nobody wrote, the playground's store keeps only what was written; either way nothing
 * was said. Only an object's fields are dropped, never an array's entries (a box's place counts).
 */
const emptyDefault = (x: unknown): boolean =>
  x === null ||
  x === "" ||
  x === false ||
  (Array.isArray(x) && x.length === 0) ||
  (!!x && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length === 0);

/**
 * The run's end state as both hosts must write it: the run's actors (by name) with their system
 * data and the system's own flags (wound, defence and Clipped logs, kill records…), and every card
 * and note; ids made host-free (an actor by its name, a message by its place, the GM as "@gm"),
 * fields at an empty default dropped, times dropped (what a clock says differs from host to host), a token id dropped (the playground
 * has none).
 */
export function parityView(raw: RawWorld, names: readonly string[]): unknown {
  const actors = raw.actors.filter((a) => names.includes(a.name));
  const ids = new Map<string, string>([[raw.gm, "@gm"]]);
  for (const a of actors) {
    ids.set(a._id, `@${a.name}`);
    ids.set(`Actor.${a._id}`, `@${a.name}`);
  }
  raw.messages.forEach((m, i) => ids.set(m._id, `#${i}`));
  // A name made of an id and a suffix (an attack card's Fudge Point spend: "<card>.attacker").
  const withId = (v: string): string => {
    const dot = v.lastIndexOf(".");
    const id = dot > 0 ? ids.get(v.slice(0, dot)) : undefined;
    return id ? `${id}${v.slice(dot)}` : v;
  };
  const clean = (v: unknown): unknown => {
    if (typeof v === "string") return ids.get(v) ?? withId(v);
    if (Array.isArray(v)) return v.map(clean);
    if (v && typeof v === "object")
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .filter(([k, x]) => !DROPPED.has(k) && !emptyDefault(x))
          .map(([k, x]) => [ids.get(k) ?? k, clean(x)]),
      );
    return v;
  };
  return clean({
    actors: Object.fromEntries(
      actors.map((a) => [a.name, { system: a.system, flags: (a.flags ?? {})["fudge-wounds"] ?? {} }]),
    ),
    messages: raw.messages.map((m) => (m.note ? { type: "note", ...m.note } : { type: m.type, system: m.system })),
  });
}
