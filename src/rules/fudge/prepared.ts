/**
 * What a Fudge request determines before any die is read, computed once per request: exact odds
 * and the duel forecast resolve the same request for every dice class.
 */
import type { Track, TrackStatus } from "../track";
import { trackStatus } from "../track";
import { defensiveFactor, offensiveFactor } from "./factors";
import { usesDoubledThresholds } from "./options";
import type { FudgeRequest } from "./request";
import { levelScaleFor } from "./woundLevel";

/**
 * What a request determines before any die is read (the defender's level scale, both damage
 * factors with their steps). A card resolves its request once, but exact odds and the duel
 * forecast resolve the same request for every dice class, so this is computed once per request.
 */
export interface Prepared {
  scale: ReturnType<typeof levelScaleFor>;
  aStatus: TrackStatus;
  dStatus: TrackStatus;
  /** Ladder names of the totals this request has shown (a card names each total). */
  ladderNames: Map<number, string>;
  odf: ReturnType<typeof offensiveFactor>;
  ddf: { graze: ReturnType<typeof defensiveFactor>; goodHit: ReturnType<typeof defensiveFactor> };
}
const preparedMemo = new WeakMap<FudgeRequest, Prepared>();
/**
 * The last request resolved, held strongly, and how often it was resolved again. A chat card
 * resolves a fresh request once: keeping it in the WeakMap too (an entry per card, weak entries
 * the garbage collector must trace) made a card several times slower. A request resolved again
 * (exact odds, an exchange table) goes into the WeakMap when the next request takes its place.
 */
let lastReq: FudgeRequest | null = null;
let lastPrepared: Prepared | null = null;
let lastReused = false;
/**
 * The duel forecast's requests (fudgeWithTracks) carry their prepared facts themselves, in a
 * non-enumerable property (never copied by a spread, never serialized): as WeakMap entries, two
 * per status pair, they made every garbage collection during a forecast slower (ephemerons).
 */
const PREPARED = Symbol("prepared");
type WithPrepared = FudgeRequest & { [PREPARED]?: Prepared };
export function prepared(req: FudgeRequest): Prepared {
  const own = (req as WithPrepared)[PREPARED];
  if (own !== undefined) return own;
  if (req === lastReq) {
    lastReused = true;
    return lastPrepared!;
  }
  if (lastReq && lastReused) preparedMemo.set(lastReq, lastPrepared!);
  let p = preparedMemo.get(req);
  if (!p) {
    const { attacker: a, defender: d, options: o } = req;
    p = {
      scale: levelScaleFor(d.track, "defender.track.config.kind", usesDoubledThresholds(o)),
      aStatus: trackStatus(a.track),
      dStatus: trackStatus(d.track),
      ladderNames: new Map(),
      odf: offensiveFactor(a, o),
      ddf: {
        graze: defensiveFactor(d, a.weapon, o, { goodHit: false }),
        goodHit: defensiveFactor(d, a.weapon, o, { goodHit: true }),
      },
    };
    Object.freeze(p.odf.steps);
    Object.freeze(p.ddf.graze.steps);
    Object.freeze(p.ddf.goodHit.steps);
  }
  lastReq = req;
  lastPrepared = p;
  lastReused = false;
  return p;
}

/**
 * The request with other tracks (the duel forecast): the factors, the level scale and the ladder
 * names prepared for `req` depend on neither track's marks (only the defender's track shape), so
 * they are shared; only the two statuses are new.
 */
export function fudgeWithTracks(
  req: FudgeRequest,
  attacker: Track,
  defender: Track,
  aStatus?: TrackStatus,
  dStatus?: TrackStatus,
): FudgeRequest {
  const pre = prepared(req);
  // The forecast comes back to `req` for every pair of tracks.
  if (!Object.prototype.hasOwnProperty.call(req, PREPARED)) {
    if (Object.isExtensible(req)) Object.defineProperty(req, PREPARED, { value: pre });
    else preparedMemo.set(req, pre); // a frozen request: remembered beside it
  }
  const next: FudgeRequest = {
    ...req,
    attacker: { ...req.attacker, track: attacker },
    defender: { ...req.defender, track: defender },
  };
  const own: Prepared = {
    ...pre,
    scale:
      defender.config === req.defender.track.config
        ? pre.scale
        : levelScaleFor(defender, "defender.track.config.kind", usesDoubledThresholds(req.options)),
    aStatus: aStatus ?? trackStatus(attacker),
    dStatus: dStatus ?? trackStatus(defender),
  };
  Object.defineProperty(next, PREPARED, { value: own });
  return next;
}
