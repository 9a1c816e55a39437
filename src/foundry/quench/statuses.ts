/** Token statuses follow the wound track. */
import * as flows from "../../system/flows";
import { foundryPort } from "../port";
import { statusesFor } from "../../system/statuses";
import type { ActorType } from "../../system/data";
import { QuenchLike, theodoraBatch, until, derived } from "./helpers";

export function registerStatusesBatch(quench: QuenchLike): void {
  theodoraBatch(
    quench,
    "statuses",
    "Fudge Combat & Wounds: statuses follow the track",
    "token statuses follow the wound track (marked, then healed)",
    async (theodora, _s, assert) => {
      for (const ref of ["hurt:0", "veryHurt:0", "incapacitated:0"])
        await flows.toggleBox(foundryPort(), theodora.uuid, ref);
      const wanted = statusesFor(derived(theodora).status!, "fudge", theodora.type as ActorType);
      assert.isAbove(wanted.statuses.length, 0, "Incapacitated has a status");
      assert.ok(
        await until(() => wanted.statuses.every((id) => theodora.statuses.has(id))),
        `statuses ${wanted.statuses.join(", ")}`,
      );
      await flows.resetTrack({ ...foundryPort(), confirm: async () => true }, theodora.uuid);
      assert.ok(
        await until(() => wanted.statuses.every((id) => !theodora.statuses.has(id))),
        "statuses cleared with the track",
      );
    },
  );
}
