/**
 * What one turn does to one side — wounds in order (a Miniatures crash follows its blow), a
 * healing a follow-up applies (FATE Clipped consumed, a Near Death roll recovered, a stun's round
 * ending), the end of a free attack it owed — interned as small integer ids, so each (state,
 * change) pair is applied once.
 */
import type { AttackResolution } from "../pipeline";
import { woundMemoKey } from "../track";

export interface SideChange {
  wounds: unknown[] | null;
  heal: unknown;
  endsFreeAttack: boolean;
}

/** One outcome of a turn: the change to the side whose turn it is (`self`), to its foe, and its probability. */
export interface TurnOutcome {
  self: number;
  foe: number;
  p: number;
}

/** The level of a change that is one plain `{level}` wound and nothing else (the common case), else null. */
function plainLevel(c: SideChange): string | null {
  if (c.heal !== null || c.endsFreeAttack || c.wounds === null || c.wounds.length !== 1) return null;
  const x = c.wounds[0] as Record<string, unknown>;
  if (typeof x !== "object" || x === null || typeof x.level !== "string") return null;
  let n = 0;
  for (const _ in x) n++;
  return n === 1 ? x.level : null;
}

/** The wounds a resolution deals to its defender, in order: the blow, then a Miniatures crash (Miniatures: Wounds). */
function woundsOf(r: AttackResolution | null): unknown[] | null {
  if (!r || r.wound === null || r.wound === undefined) return null;
  if (r.followUps.length === 0) return [r.wound];
  const crash = r.followUps.find((x) => x.type === "crashWound" && x.target === "defender");
  return crash ? [r.wound, { level: crash.params.level }] : [r.wound];
}

/**
 * The key of a wound of plain fields (a Volt `{row, type}`): the track memo's own key
 * (woundMemoKey, field by field), null for any other wound — built without JSON.
 */
function flatWoundKey(x: unknown): string | null {
  const key = woundMemoKey(x);
  return key.startsWith("~") ? key : null;
}

const flatKeyOf = (c: SideChange): string | null =>
  c.heal === null && !c.endsFreeAttack && c.wounds !== null && c.wounds.length === 1 ? flatWoundKey(c.wounds[0]) : null;

export class SideChanges {
  readonly list: SideChange[] = [];
  private readonly byKey = new Map<string, number>();
  /** Plain wounds by their level string (the pipeline's own string: no key to build per leaf). */
  private readonly byLevel = new Map<string, number>();
  /** One wound of plain fields (flatWoundKey), by its key. */
  private readonly byFlat = new Map<string, number>();
  /** The change that changes nothing. */
  readonly nothing = this.intern({ wounds: null, heal: null, endsFreeAttack: false });

  intern(c: SideChange): number {
    const level = plainLevel(c);
    const flat = level === null ? flatKeyOf(c) : null;
    const ids = level !== null ? this.byLevel : flat !== null ? this.byFlat : this.byKey;
    const key = level ?? flat ?? (c.heal === null && !c.endsFreeAttack && c.wounds === null ? "" : JSON.stringify(c));
    let i = ids.get(key);
    if (i === undefined) {
      ids.set(key, (i = this.list.length));
      this.list.push(c);
    }
    return i;
  }

  /**
   * A leaf's change for one side, interned as `intern` would intern `{wounds: woundsOf(r), heal,
   * endsFreeAttack}`, without building it for the common cases: nothing at all, or one plain
   * `{level}` wound whose level has been seen, or one wound of plain fields already seen (nearly
   * every leaf of an enumeration).
   */
  readonly ofResolution = (r: AttackResolution | null, heal: unknown, endsFreeAttack: boolean): number => {
    if (heal === null && !endsFreeAttack) {
      if (r === null || r.wound === null || r.wound === undefined) return this.nothing;
      const x = r.wound as Record<string, unknown>;
      if (r.followUps.length === 0 && typeof x === "object" && typeof x.level === "string") {
        const i = this.byLevel.get(x.level);
        if (i !== undefined) {
          let n = 0;
          for (const _ in x) n++;
          if (n === 1) return i;
        }
      } else if (r.followUps.length === 0) {
        // A wound of plain fields (Volt): found by its key, as intern would key it.
        const key = flatWoundKey(x);
        const i = key === null ? undefined : this.byFlat.get(key);
        if (i !== undefined) return i;
      }
    }
    return this.intern({ wounds: woundsOf(r), heal, endsFreeAttack });
  };
}
