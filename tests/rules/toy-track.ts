/**
 * A toy track kind for the engine's own tests: a row of boxes, each hit fills one, the last
 * takes the fighter out. Its answers are known in closed form, so the engine is tested apart
 * from any real preset.
 */
import { int, record, type TrackKind, type TrackStatus } from "../../src/rules";

export interface HitsConfig {
  kind: string;
  boxes: number;
}
export interface HitsState {
  hits: number;
}

/** A track kind named `kind` whose every hit costs `penaltyPerHit` on later rolls. */
export function hitsTrackKind(
  kind: string,
  penaltyPerHit: number,
): TrackKind<HitsConfig, HitsState, { n: number }, unknown> {
  const status = (c: HitsConfig, s: HitsState): TrackStatus => ({
    penalty: s.hits && penaltyPerHit ? -penaltyPerHit * s.hits : 0,
    condition: s.hits >= c.boxes ? "takenOut" : "able",
    canAct: s.hits < c.boxes,
    levelKey: s.hits ? "hit" : null,
    effects: [],
    steps: [],
  });
  return {
    kind,
    parseConfig: (i, p) => ({ kind, boxes: int(record(i, p).boxes, `${p}.boxes`, 1, 10) }),
    parseState: (c, i, p) => ({ hits: int(record(i, p).hits, `${p}.hits`, 0, c.boxes) }),
    parseWound: (_c, i, p) => ({ n: int(record(i, p).n, `${p}.n`, 1, 10) }),
    parseHealing: () => ({}),
    initial: () => ({ hits: 0 }),
    apply: (c, s, w) => {
      const state = { hits: Math.min(c.boxes, s.hits + w.n) };
      return { state, steps: [], status: status(c, state), ended: state.hits >= c.boxes };
    },
    status,
    heal: () => ({ state: { hits: 0 }, steps: [] }),
    toggle: (_c, s) => s,
    render: (c, s) => ({ kind, label: "", rows: [], status: status(c, s) }),
    stateKey: (_c, s) => String(s.hits),
  };
}
