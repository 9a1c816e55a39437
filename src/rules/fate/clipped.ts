/**
 * FATE ladder's Clipped as a roll reads it: apart from the pipeline, so that the adapter's test
 * (src/system/clipped.ts) loads with the rules core and the pipeline loads on demand.
 */
import { trackStatus, type Track } from "../track";
import { fateTrack } from "./track";

/**
 * FATE ladder: does a roll made now count as the character's "next action" after a Clipped? (−1,
 * and "Box resets after that action".) The one test the pipeline and the adapter both use.
 */
export function rollsClipped(track: Track): boolean {
  return track.config.kind === fateTrack.kind && trackStatus(track).effects.includes("clipped");
}
