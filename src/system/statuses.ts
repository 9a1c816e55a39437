/**
 * Token status effects from a wound track's status. The rules core's
 * TrackStatus names the worst level reached and the condition; this maps both to status ids.
 */
import type { PresetId, TrackStatus } from "../rules";
import type { ActorType } from "./data";
import { SYSTEM_ID } from "./registry";

export interface StatusEffectDef {
  id: string;
  /** i18n key of the name. */
  name: string;
  img: string;
}

const s = (id: string, name: string, img: string): StatusEffectDef => ({
  id: `${SYSTEM_ID}.${id}`,
  name: `FUDGE.Status.${name}`,
  img,
});

/** The system's own statuses, added to CONFIG.statusEffects. Core "dead" and "prone" are reused. */
export const WOUND_STATUS_EFFECTS: readonly StatusEffectDef[] = [
  s("scratched", "Scratched", "icons/svg/blood.svg"),
  s("hurt", "Hurt", "icons/svg/blood.svg"),
  s("veryHurt", "VeryHurt", "icons/svg/bones.svg"),
  s("incapacitated", "Incapacitated", "icons/svg/unconscious.svg"),
  s("nearDeath", "NearDeath", "icons/svg/skull.svg"),
  s("takenOut", "TakenOut", "icons/svg/door-exit.svg"),
  s("clipped", "Clipped", "icons/svg/daze.svg"),
  s("injured", "Injured", "icons/svg/blood.svg"),
  s("stunned", "Stunned", "icons/svg/daze.svg"),
  s("veryStunned", "VeryStunned", "icons/svg/stoned.svg"),
  s("knockedOut", "KnockedOut", "icons/svg/unconscious.svg"),
  s("terrified", "Terrified", "icons/svg/terror.svg"),
];

/** Ids of every status this module manages (so stale ones are removed when a wound heals). */
export const MANAGED_STATUS_IDS: readonly string[] = [...WOUND_STATUS_EFFECTS.map((e) => e.id), "dead", "prone"];

/** Level keys of the presets' tracks that show as a token status. Scratches do not (no penalty, Fudge §4.57). */
const LEVEL_STATUS: Record<string, string> = {
  hurt: "hurt",
  veryHurt: "veryHurt",
  incapacitated: "incapacitated",
  nearDeath: "nearDeath",
  // FATE wound ladder
  clipped: "clipped",
  injured: "injured",
  takenOut: "takenOut",
};

const EFFECT_STATUS: Record<string, string> = {
  stunned: "stunned",
  veryStunned: "veryStunned",
  knockedOut: "knockedOut",
  clipped: "clipped",
  terrified: "terrified",
};

export interface TokenStatuses {
  /** Status ids that should be on the token. */
  statuses: string[];
  /** Combatant defeated in the tracker. */
  defeated: boolean;
  /** Status id shown as the big overlay (dead / taken out / prone), or null. */
  overlay: string | null;
}

/**
 * The token statuses of an actor's state: its wound track's status and, for a miniature, the worst
 * Guts failure in force (`gutsEffect`, the stored gutsState's effect: 0 when none; src/rules/miniatures/guts.ts).
 */
export function statusesFor(
  status: TrackStatus,
  preset: PresetId,
  actorType: ActorType,
  gutsEffect = 0,
): TokenStatuses {
  const out = new Set<string>();
  let overlay: string | null = null;
  let defeated = false;
  const id = (k: string) => `${SYSTEM_ID}.${k}`;
  if (status.condition === "dead") {
    // Miniatures: a dead model lies face down — the core "dead" overlay.
    out.add("dead");
    overlay = "dead";
    defeated = true;
  } else if (status.condition === "takenOut") {
    // FATE: Taken Out is out of the scene, not necessarily dead.
    out.add(id("takenOut"));
    overlay = id("takenOut");
    defeated = true;
  } else {
    const lvl = status.levelKey ? LEVEL_STATUS[status.levelKey] : undefined;
    if (lvl) out.add(id(lvl));
    else if (status.condition === "dying") out.add(id("nearDeath"));
    else if (status.condition === "cannotAct") out.add(id("incapacitated"));
    else if (status.penalty < 0) out.add(id(status.penalty <= -2 ? "veryHurt" : "hurt")); // Volt rows carry penalties, not names
    if (preset === "miniatures" && actorType === "miniature" && status.levelKey === "nearDeath") {
      // Miniatures: a Near Death model falls (token face up / prone).
      out.add("prone");
      overlay = "prone";
    }
    if (preset === "miniatures" && actorType === "miniature" && gutsEffect >= 4) {
      // Miniatures: Guts — failure by 4: "Model falls to the ground, terrified, and enemies treat it
      // as a helpless target": terrified, and prone (on the ground) — a small icon, not the big
      // overlay, which stays for Near Death. Gone when the re-check passes (the effect leaves the state).
      out.add(id("terrified"));
      out.add("prone");
    }
  }
  for (const e of status.effects) if (EFFECT_STATUS[e]) out.add(id(EFFECT_STATUS[e]));
  return { statuses: [...out].sort(), defeated, overlay };
}

/**
 * What to toggle so the token shows `wanted`, changing only what this system set itself. `mine`
 * is the list of statuses the system added (its own namespaced ones, and core ones it marked on
 * their effect): a status the GM set by hand (dead, prone) is never removed, nor claimed; one the
 * GM removed by hand comes back only if a later wound change wants it.
 */
export function statusPlan(
  current: Iterable<string>,
  mine: readonly string[],
  wanted: readonly string[],
): { add: string[]; remove: string[]; mine: string[] } {
  const cur = new Set(current);
  const want = new Set(wanted);
  const owned = new Set(mine.filter((s) => cur.has(s)));
  const add = [...want].filter((s) => !cur.has(s)).sort();
  const remove = [...owned].filter((s) => !want.has(s)).sort();
  const next = new Set([...owned].filter((s) => want.has(s)));
  for (const s of add) next.add(s);
  return { add, remove, mine: [...next].sort() };
}

/**
 * The combat tracker's defeated flag: set when the track says so and it is not set; cleared only
 * when this system set it (`mine`). Returns the new flag, or null for "leave it", and whether the
 * system owns the flag afterwards.
 */
export function defeatedPlan(current: boolean, mine: boolean, wanted: boolean): { set: boolean | null; mine: boolean } {
  if (wanted && !current) return { set: true, mine: true };
  if (!wanted && current) return mine ? { set: false, mine: false } : { set: null, mine: false };
  return { set: null, mine: current && mine };
}
