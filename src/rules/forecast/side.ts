/** One side of a duel: its distinct states (track and mind) by small integer ids. */
import type { Combatant } from "../pipeline";
import { trackStateKey, trackStatus, type Track, type TrackStatus } from "../track";
import type { SideId } from "./request";
import type { SideMind, SideMinds } from "./rules";

/** What an attack by or on a side reads of its status by default: the worst level itself is left out (two states with the same penalty and effects roll alike). */
export const statusSignature = (s: TrackStatus): string => `${s.penalty}|${s.effects.join(",")}|${s.canAct ? 1 : 0}`;

/** The rules a side's states are interned by. */
export interface SideRules<M extends SideMind> {
  isOut(status: TrackStatus): boolean;
  signature(status: TrackStatus): string;
  /** The key of a track state: states with one key must act alike in every future of the duel. */
  stateKey(track: Track): string;
  /** When this side leaves by flight in a status; null: never. */
  fleesAt: ((status: TrackStatus) => boolean) | null;
  /** An attack on this side reads its exact state. */
  exactDefender: boolean;
  minds: SideMinds<M> | null;
}

export class Side<M extends SideMind = SideMind> {
  readonly ids = new Map<string, number>();
  readonly tracks: Track[] = [];
  readonly minds: Array<M | null> = [];
  /** Each state's signature id (what an attack by or on it reads), and its exact state's id (kept only for an exact defender). */
  readonly signature: number[] = [];
  readonly exact: number[] = [];
  readonly out: boolean[] = [];
  readonly canAct: boolean[] = [];
  /** The track's status of each state id. */
  readonly status: TrackStatus[] = [];
  /** (state id, change id) → the next state id, or a distribution of them (a check of its mind). */
  readonly next: Array<Array<number | Array<[number, number]> | undefined>> = [];
  /** Wounds of each change as the track kind parsed them. */
  readonly wounds = new Map<number, unknown[]>();
  private outId = -1;
  /** The one id of every state that left the duel by flight, −1 until one is seen. */
  fledId = -1;
  /** Each state id's stand-in at the start of its turn and while it waits for it (DuelGraph.standIn). */
  readonly atTurnStart: number[] = [];
  readonly whileWaiting: number[] = [];
  constructor(
    readonly id: SideId,
    readonly card: Combatant,
    private readonly signatures: Map<string, number>,
    readonly rules: SideRules<M>,
  ) {}

  /** The id of a state (`status`: the track's status when the caller has it already: an apply returns it). */
  intern(track: Track, mind: M | null, status?: TrackStatus): number {
    const s = status ?? trackStatus(track);
    // Every state that is out of the fight ends the duel alike: one id for all, no key needed. A
    // side that fled is out as well, by flight: one id of its own (unless its wounds put it out).
    const down = this.rules.isOut(s);
    const fled = !down && (mind?.fled === true || (this.rules.fleesAt !== null && this.rules.fleesAt(s)));
    const out = down || fled;
    if (out) {
      const o = fled ? this.fledId : this.outId;
      if (o >= 0) return o;
    }
    const minds = this.rules.minds;
    if (mind && minds) mind = minds.settle(this.id, mind, s);
    const trackKey = this.rules.stateKey(track);
    const key = mind ? `${trackKey}#${mind.key}` : trackKey;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.tracks.length;
      this.tracks.push(track);
      this.minds.push(mind);
      const mindSignature = mind && minds ? minds.signature(mind) : "";
      this.signature.push(signatureId(this.signatures, `${this.rules.signature(s)}|${mindSignature}`));
      if (this.rules.exactDefender) this.exact.push(signatureId(this.signatures, `=${trackKey}|${mindSignature}`));
      this.out.push(out);
      this.canAct.push(s.canAct);
      this.status.push(s);
      this.ids.set(key, id);
      if (fled) this.fledId = id;
      else if (out) this.outId = id;
    }
    return id;
  }
}

function signatureId(signatures: Map<string, number>, key: string): number {
  let i = signatures.get(key);
  if (i === undefined) signatures.set(key, (i = signatures.size));
  return i;
}

/** The default SideRules pieces. */
export const cannotAct = (s: TrackStatus): boolean => !s.canAct;
export { trackStateKey };
