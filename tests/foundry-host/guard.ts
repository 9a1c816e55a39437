/**
 * Run after every host test: on generation 14 no update may reach the server with a legacy `-=` /
 * `==` key (v14 logs a compatibility warning for each and v16 removes them; the system writes
 * ForcedDeletion / ForcedReplacement through forCore). A test that forges one on purpose sets
 * `world.legacyKeysExpected`.
 */
import { afterEach } from "vitest";
import type { World } from "./world";

const LEGACY = /update key is deprecated/;

afterEach(() => {
  const worlds = (globalThis as { __fudgeStartedWorlds?: World[] }).__fudgeStartedWorlds?.splice(0) ?? [];
  const found = worlds
    .filter((w) => !w.legacyKeysExpected)
    .flatMap((w) => w.deprecations.filter((d) => LEGACY.test(d.message)).map((d) => d.message));
  if (found.length) throw new Error(`legacy update keys reached a v14 update:\n${[...new Set(found)].join("\n")}`);
});
