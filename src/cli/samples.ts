/**
 * Sample characters for CLI requests: a combatant given as a string ("attacker": "Leroy") is
 * read from the pack sources (packs/src/**) and mapped to the preset's combatant by the same
 * pure function the Foundry sheets use (src/system/combatant.ts). Everything else passes through.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RulesError, isRecord } from "../rules";
import { attackRequest, equippedOf } from "../system/combatant";
import { defaultWorldRules, type ActorDoc, type ItemDoc, type WorldRules } from "../system/data";

/** packs/src of the checkout this module runs from (found upward, so bundled copies work too). */
function packSources(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const p = join(dir, "packs", "src");
    if (existsSync(p)) return p;
    const up = resolve(dir, "..");
    if (up === dir)
      throw new RulesError("", "FUDGE.Error.NoPackSources", "packs/src was not found beside this program");
    dir = up;
  }
}
const PACK_SOURCES = packSources();

function* jsonFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* jsonFiles(p);
    else if (name.endsWith(".json")) yield p;
  }
}

let cache: ActorDoc[] | null = null;

/** Every actor of the pack sources. */
export function sampleActors(dir = PACK_SOURCES): ActorDoc[] {
  if (cache && dir === PACK_SOURCES) return cache;
  const actors: ActorDoc[] = [];
  for (const f of jsonFiles(dir)) {
    const doc = JSON.parse(readFileSync(f, "utf8")) as { _key?: string } & ActorDoc;
    if (typeof doc._key === "string" && doc._key.startsWith("!actors!")) actors.push(doc);
  }
  if (dir === PACK_SOURCES) cache = actors;
  return actors;
}

export function findSample(name: string, field: string): ActorDoc {
  const n = name.trim().toLowerCase();
  const actors = sampleActors();
  if (n === "") throw new RulesError(field, "FUDGE.Error.EmptySample", "a sample character's name is empty");
  const exact = actors.find((a) => a.name.toLowerCase() === n);
  const prefixed = exact ? [exact] : actors.filter((a) => a.name.toLowerCase().startsWith(n));
  // A prefix names a sample only when it names exactly one ("K" could be King Kingsley or Knavely Knave).
  if (prefixed.length > 1)
    throw new RulesError(
      field,
      "FUDGE.Error.AmbiguousSample",
      `${JSON.stringify(name.slice(0, 80))} could be ${prefixed.map((a) => a.name).join(", ")}`,
      {
        name: name.slice(0, 80),
        matches: prefixed.map((a) => a.name).join(", "),
      },
    );
  const hit = prefixed[0];
  if (!hit)
    throw new RulesError(
      field,
      "FUDGE.Error.UnknownSample",
      `no sample character named ${JSON.stringify(name.slice(0, 80))} (samples: ${actors.map((a) => a.name).join(", ")})`,
    );
  return hit;
}

/**
 * The world rules a sample is mapped under: the request's preset, and the request's Fudge options
 * that shape the track (Fudge §4.55 double RD thresholds, which go with the factor mode only;
 * §4.57 DC as the track), so a sample's track agrees with the options the request resolves with.
 */
function rulesFor(preset: unknown, options: unknown): WorldRules {
  const rules = defaultWorldRules();
  if (typeof preset === "string") rules.preset = preset as WorldRules["preset"];
  if (preset === "fudge" && isRecord(options)) {
    if (typeof options.doubleRd === "boolean") rules.fudge.doubleRd = options.doubleRd;
    if (typeof options.dcVariant === "string")
      rules.fudge.dcVariant = options.dcVariant as WorldRules["fudge"]["dcVariant"];
    if (typeof options.woundMode === "string")
      rules.fudge.woundMode = options.woundMode as WorldRules["fudge"]["woundMode"];
  }
  return rules;
}

/** The combatant the preset's request takes for a sample actor (attacking with its first equipped weapon). */
function sampleSide(
  actor: ActorDoc,
  other: ActorDoc,
  preset: unknown,
  options: unknown,
  role: "attacker" | "defender",
): unknown {
  const rules = rulesFor(preset, options);
  const weapon = (equippedOf(actor, "weapon")[0] as ItemDoc<"weapon"> | undefined) ?? null;
  const req =
    role === "attacker"
      ? attackRequest(actor, weapon, other, rules)
      : attackRequest(other, (equippedOf(other, "weapon")[0] as ItemDoc<"weapon"> | undefined) ?? null, actor, rules);
  return req[role];
}

/** Replaces sample names in attacker/defender (attack requests) and a/b (duel requests). */
export function resolveSamples(request: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...request };
  for (const [x, y] of [
    ["attacker", "defender"],
    ["a", "b"],
  ] as const) {
    const sx = typeof request[x] === "string" ? findSample(request[x] as string, x) : null;
    const sy = typeof request[y] === "string" ? findSample(request[y] as string, y) : null;
    if (!sx && !sy) continue;
    // The mapping needs an opponent; a sample facing a literal combatant faces itself for the mapping.
    if (sx) out[x] = sampleSide(sx, sy ?? sx, request.preset, request.options, "attacker");
    if (sy) out[y] = sampleSide(sy, sx ?? sy, request.preset, request.options, "defender");
  }
  for (const k of ["attacker", "defender", "a", "b"]) {
    if (out[k] !== undefined && !isRecord(out[k]))
      throw new RulesError(k, "FUDGE.Error.NotObject", "must be a combatant object or a sample character's name");
  }
  return out;
}
