#!/usr/bin/env node
/**
 * Hostile-input probe of every `fudge-rules` command (issue #10, "Hard budgets, clean refusals"):
 * malformed JSON, wrong types at every field of a valid request of each preset (null, lists for
 * objects, 1e999 = Infinity, -0, huge and fractional numbers, long and odd strings, `__proto__`),
 * missing and extra fields, each documented limit at and one past its maximum. Each probe runs
 * in-process in a worker thread (as the CLI's own worker runs a command), with the CLI's heap
 * limit and a watchdog, and is judged: answered (0), refused cleanly (2: a line < 1 KB whose key
 * is in lang/en.json), or a DEFECT — a crash (the CLI's exit 1), a hang past the CLI's time
 * budget, an answer holding NaN/Infinity, a polluted Object.prototype, or a line ≥ 1 KB.
 *
 *   node tools/cli-probe.mjs [--only resolve,odds,…] [--group mutate] [--out report.md] [--jsonl all.jsonl] [--bin]
 *
 * `--bin` also runs the real `bin/fudge-rules.mjs` (its worker, heap and time budget) on file
 * inputs and `convert-fudge-rpg`, and on the largest accepted requests, with their exit code,
 * wall time and peak resident memory (`/usr/bin/time`, when present).
 *
 * Prints a summary by command and verdict, and each defect; exit 1 when any defect was found.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

const args = process.argv.slice(2);
const argOf = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const only = argOf("--only")?.split(",");
const outFile = argOf("--out");
const jsonlFile = argOf("--jsonl");
const WATCHDOG_MS = 75_000; // over the library's largest budgetMs (60 s): past it, a hang
const MEMORY_MB = 1024; // the CLI's worker heap
const en = JSON.parse(readFileSync(new URL("../lang/en.json", import.meta.url), "utf8"));

// ─── The worker, restarted after a hang or a crash of its own ─────────────────────────────
let worker;
let pending = null;
function start() {
  return new Promise((ready) => {
    worker = new Worker(new URL("./cli-probe-worker.mjs", import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: MEMORY_MB },
    });
    worker.on("message", (m) => {
      if (m.ready) return ready();
      const p = pending;
      pending = null;
      p?.(m);
    });
    worker.on("error", (e) => {
      const p = pending;
      pending = null;
      p?.({ dead: e?.code === "ERR_WORKER_OUT_OF_MEMORY" ? "oom" : String(e?.stack ?? e).slice(0, 400) });
    });
  });
}
async function ask(msg) {
  let timer;
  const r = await new Promise((resolve) => {
    pending = resolve;
    timer = setTimeout(() => {
      pending = null;
      resolve({ dead: "hang" });
    }, WATCHDOG_MS);
    worker.postMessage(msg);
  });
  clearTimeout(timer);
  if (r.dead) {
    await worker.terminate();
    await start();
  }
  return r;
}

// ─── Hostile values (JSON text) and mutations ─────────────────────────────────────────────
const LONG = `"${"x".repeat(100_000)}"`;
const HOSTILE = {
  null: "null",
  list: "[]",
  listOfNull: "[null]",
  object: "{}",
  empty: '""',
  text: '"x"',
  longText: LONG,
  numText: '"1"',
  loneSurrogate: '"\\ud800"',
  nul: '"\\u0000"',
  true: "true",
  zero: "0",
  negZero: "-0",
  minus1: "-1",
  half: "1.5",
  infinity: "1e999",
  negInfinity: "-1e999",
  unsafeInt: "9007199254740993",
  huge: "1e300",
  tiny: "5e-324",
  proto: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
};
const MARK = "\u0001MARK\u0001";
const markText = JSON.stringify(MARK);

/** Every path of a JSON value: [path, value]. */
function* paths(v, path = []) {
  yield [path, v];
  if (v !== null && typeof v === "object")
    for (const [k, c] of Object.entries(v)) yield* paths(c, [...path, Array.isArray(v) ? Number(k) : k]);
}
const clone = (v) => structuredClone(v);
function setAt(root, path, value) {
  if (!path.length) return value;
  const r = clone(root);
  let o = r;
  for (const k of path.slice(0, -1)) o = o[k];
  o[path.at(-1)] = value;
  return r;
}
function deleteAt(root, path) {
  const r = clone(root);
  let o = r;
  for (const k of path.slice(0, -1)) o = o[k];
  if (Array.isArray(o)) o.splice(path.at(-1), 1);
  else delete o[path.at(-1)];
  return r;
}
const withToken = (root, path, token) => JSON.stringify(setAt(root, path, MARK)).replace(markText, () => token);
const show = (p) =>
  p
    .map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`))
    .join("")
    .replace(/^\./, "") || "(request)";

/** Mutations of one valid request: each path × each hostile value, each field deleted, extra fields. */
function* mutations(base, values = Object.keys(HOSTILE)) {
  for (const [path, v] of paths(base)) {
    for (const name of values) yield { what: `${show(path)} = ${name}`, text: withToken(base, path, HOSTILE[name]) };
    if (path.length) yield { what: `${show(path)} deleted`, text: JSON.stringify(deleteAt(base, path)) };
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = JSON.stringify(v);
      yield {
        what: `${show(path)} + __proto__ key`,
        text: withToken(base, path, `{"__proto__":{"polluted":1},${inner.slice(1)}`.replace(",}", "}")),
      };
      yield {
        what: `${show(path)} + unknown field`,
        text: withToken(base, path, `{"zzUnknown":1,${inner.slice(1)}`.replace(",}", "}")),
      };
      // Duplicated key: a hostile first value, the valid one last (JSON.parse keeps the last).
      const first = Object.keys(v)[0];
      if (first)
        yield {
          what: `${show(path)}.${first} duplicated`,
          text: withToken(base, path, `{${JSON.stringify(first)}:1e999,${inner.slice(1)}`),
        };
    }
  }
}

// ─── The probes ────────────────────────────────────────────────────────────────────────────
const probes = [];
const add = (group, command, what, text, options, expect) =>
  probes.push({ group, command, what, text, options, expect });

// Base requests (sample characters mapped to full combatants by the worker).
await start();
const SAMPLE_REQUESTS = [
  { preset: "fudge", attacker: "Leroy", defender: "Theodora" },
  { preset: "fate", attacker: "Leroy", defender: "Theodora" },
  { preset: "volt", attacker: "Leroy", defender: "Theodora" },
  { preset: "miniatures", attacker: "Yanni", defender: "Knavely" },
  { preset: "volt", attacker: "Theodora", defender: "Theodora" },
];
const { samples: full } = await ask({ samples: SAMPLE_REQUESTS });
const [fudgeReq, fateReq, voltReq, miniReq, voltTT] = full;
// The slots each request can roll, with valid faces (a slot the request cannot roll is refused: group "dice" below).
const DICE = {
  fudge: { attack: [1, 1, 0, 0], defense: [-1, 0, 0, 0] },
  fate: { attack: [1, 1, 0, 0], defense: [-1, 0, 0, 0] },
  volt: { attack: [18, 3], damage: [4, 4] },
  miniatures: { attack: [1, 1, 0, 0], crash: [0, 0, 0, 0] },
};
const duel = (r, extra = {}) => ({ preset: r.preset, a: r.attacker, b: r.defender, ...extra });
const PRESETS = ["fudge", "fate", "volt", "miniatures"];
const NAMES = {
  fudge: ["Leroy", "Theodora"],
  fate: ["Leroy", "Theodora"],
  volt: ["Leroy", "Theodora"],
  miniatures: ["Yanni", "Knavely"],
};
const COMMANDS = [
  "resolve",
  "odds",
  "forecast",
  "status",
  "heal",
  "kill",
  "guts",
  "recover",
  "nosuch",
  "__proto__",
  "constructor",
  "toString",
];

// 1. Malformed JSON and request shapes, for every command.
const SHAPES = [
  "",
  " ",
  "{",
  "}",
  "[]",
  "null",
  "1",
  '"text"',
  "true",
  "1e999",
  "{}",
  '{"preset":"fudge"',
  "\uFEFF{}",
  "{\u0000}",
  "NaN",
  "{'a':1}",
  '{"a":1,}',
  "[".repeat(63) + "]".repeat(63),
  "[".repeat(64) + "]".repeat(64),
  "[".repeat(65) + "]".repeat(65),
  "[".repeat(8000) + "]".repeat(8000),
  '{"a":'.repeat(8000) + "1" + "}".repeat(8000),
];
for (const c of COMMANDS)
  for (const s of SHAPES)
    add("shape", c, `text ${JSON.stringify(s.slice(0, 24))}${s.length > 24 ? `… (${s.length} chars)` : ""}`, s);
// Values just under and over the value budget (200,000), and a 3.9 MB request.
add("shape", "odds", "199,990 values", JSON.stringify({ ...fudgeReq, zz: new Array(199_900).fill(0) }));
add("shape", "odds", "200,001 values", JSON.stringify({ ...fudgeReq, zz: new Array(200_001).fill(0) }));
add("shape", "odds", "3.9 MB string", JSON.stringify({ ...fudgeReq, zz: "y".repeat(3_900_000) }));
add(
  "shape",
  "odds",
  "100,000 keys",
  JSON.stringify({ ...fudgeReq, ...Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])) }),
);

// 2. Every command × every preset, with the sample names and with full combatants.
for (const c of COMMANDS.slice(0, 8))
  for (const p of PRESETS) {
    const [x, y] = NAMES[p];
    add(
      "matrix",
      c,
      `${p} samples`,
      JSON.stringify({ preset: p, attacker: x, defender: y, a: x, b: y, dice: DICE[p] }),
    );
    add(
      "matrix",
      c,
      `${p} ambiguous/empty sample`,
      JSON.stringify({ preset: p, attacker: "K", defender: "", a: "K", b: "" }),
    );
    add(
      "matrix",
      c,
      `${p} unknown sample (10 MB-ish name)`,
      JSON.stringify({ preset: p, attacker: "q".repeat(200_000), defender: y }),
    );
    add(
      "matrix",
      c,
      `${p} sample name "__proto__"`,
      JSON.stringify({ preset: p, attacker: "__proto__", defender: "constructor", a: "toString", b: y }),
    );
  }
for (const p of ["", "FUDGE", "volt ", "__proto__", "constructor", null, 1, ["fudge"]])
  add("matrix", "odds", `preset ${JSON.stringify(p)}`, JSON.stringify({ ...fudgeReq, preset: p }));

// 3. Mutations of valid requests, field by field.
const only1 = (r) => r;
const MUT = [
  ["resolve", "fudge", { ...fudgeReq, dice: DICE.fudge, situation: {}, options: {} }],
  ["resolve", "fate", { ...fateReq, dice: DICE.fate }],
  ["resolve", "volt", { ...voltReq, dice: DICE.volt }],
  ["resolve", "miniatures", { ...miniReq, dice: DICE.miniatures }],
  ["odds", "fudge", fudgeReq],
  ["odds", "volt", voltReq],
  ["odds", "miniatures", miniReq],
  ["forecast", "fudge", duel(fudgeReq, { first: "a", maxStates: 1000, budgetMs: 5000, tolerance: 1e-4 })],
  ["forecast", "fate", duel(fateReq)],
  ["forecast", "miniatures", duel(miniReq, { gutsChecks: false, terrifyingCharge: false })],
  [
    "forecast",
    "sample",
    duel(fudgeReq, { method: "sample", samples: 200, seed: 3, maxExchanges: 50, fallback: "none" }),
  ],
];
for (const [c, label, base] of MUT) add("base", c, label, JSON.stringify(base));
for (const [c, label, base] of MUT) for (const m of mutations(only1(base))) add(`mutate ${label}`, c, m.what, m.text);
// Volt forecasts cost 0.1 s and more each: fewer values, on the duel's own fields and one side.
for (const m of mutations(duel(voltTT, { budgetMs: 3000 }), [
  "null",
  "list",
  "object",
  "infinity",
  "negZero",
  "half",
  "huge",
  "minus1",
  "longText",
  "proto",
]))
  add("mutate volt forecast", "forecast", m.what, m.text);

// Track commands: a Hurt box track (Fudge), a DC track, a FATE track, a Volt track, a Miniatures track.
const boxTrack = {
  ...fudgeReq.defender.track,
  state: {
    ...fudgeReq.defender.track.state,
    marks: {
      ...fudgeReq.defender.track.state.marks,
      scratch: [{ level: "scratch" }, null, null],
      hurt: [{ level: "hurt" }],
    },
  },
};
const voltTrack = { config: { kind: "volt", willpower: 6 }, state: { marks: { 3: "stun", 5: "stun", 2: "injury" } } };
const miniTrack = miniReq.defender.track;
const dcTrack = { config: { kind: "dc", start: 2 }, state: { dc: 1, scratches: 1 } };
const TRACKS = { box: boxTrack, volt: voltTrack, fate: fateReq.defender.track, mini: miniTrack, dc: dcTrack };
const NEAR_DEATH = {
  ...miniTrack,
  state: { ...miniTrack.state, marks: { ...miniTrack.state.marks, nearDeath: [{ level: "nearDeath" }] } },
};
const TRACK_MUT = [
  ["status", { track: boxTrack }],
  ["status", { track: voltTrack }],
  ["status", { track: fateReq.defender.track }],
  ["status", { track: dcTrack }],
  ["heal", { track: boxTrack, healing: { type: "roll", result: 1 } }],
  ["heal", { track: boxTrack, healing: { type: "natural", weeks: 2, rapid: true, constitution: 1 } }],
  ["heal", { track: boxTrack, healing: { type: "box", ref: "scratch:0" } }],
  ["heal", { track: boxTrack, healing: { type: "endRound", rounds: 2 } }],
  ["heal", { track: voltTrack, healing: { type: "injuryRecovery", black: 3, white: 17, strength: 8, medical: 2 } }],
  ["heal", { track: voltTrack, healing: { type: "recover", result: "success" } }],
  ["kill", { track: boxTrack }],
  [
    "guts",
    {
      check: "check",
      guts: 0,
      modifiers: 1,
      reason: "terrifying",
      terrifying: 2,
      turn: 3,
      dice: [-1, 0, 0, 0],
      gift: { name: "Steadfast", rule: "steadfast", value: 1 },
      beingCharged: true,
    },
  ],
  [
    "guts",
    {
      check: "recheck",
      guts: 0,
      state: {
        pending: [
          { reason: "newWoundLevel", target: 1, sinceTurn: 3, bonus: 0, forfeitNext: 0, lastTurn: 3, effect: 2 },
        ],
        effect: 2,
      },
      turn: 4,
      dice: [0, 0, 0, 0],
      index: 0,
    },
  ],
  ["guts", { check: "nearDeath", track: NEAR_DEATH, guts: 1, dice: [1, 0, 0, 0] }],
  ["recover", { track: voltTrack, willpower: 6, dice: [3, 17] }],
  ["recover", { track: voltTrack, recover: "injury", strength: 8, medical: 1, dice: [3, 17] }],
];
for (const [c, base] of TRACK_MUT) add("base", c, c, JSON.stringify(base));
for (const [c, base] of TRACK_MUT) for (const m of mutations(base)) add(`mutate ${c}`, c, m.what, m.text);
for (const [k, t] of Object.entries(TRACKS))
  for (const c of ["status", "heal", "kill", "recover"])
    add(
      "track kinds",
      c,
      `${k} track`,
      JSON.stringify({ track: t, healing: { type: "rest" }, willpower: 5, dice: [3, 3] }),
    );

// 3b. Recorded dice (session 9): every recorded slot must be one the request can roll, its faces
// valid for its dice, whether or not this resolution reads it. Each request of every preset and
// each Fudge option that adds a slot, with a miss (later slots unread) and a hit: the valid record
// is answered; each slot broken (a face past either end, one face more or less, a fraction, text,
// null, not a list) and each unknown slot (misspelt, another option's, __proto__) is refused.
const dF = (n, lo = -1, hi = 1) => ({ n, lo, hi });
const stunVolt = { ...voltReq, attacker: { ...voltReq.attacker, weapon: { ...voltReq.attacker.weapon, stun: true } } };
const DICE_CASES = [
  ["fudge", fudgeReq, { attack: dF(4), defense: dF(4) }],
  [
    "fudge dfNumber+dc roll+scale",
    { ...fudgeReq, options: { damageRoll: "dfNumber", dcVariant: "roll", scaleDamageRoll: true } },
    { attack: dF(4), defense: dF(4), damage: dF(1), dc: dF(4), scale: dF(1) },
  ],
  [
    "fudge situational4dF",
    { ...fudgeReq, options: { damageRoll: "situational4dF" } },
    { attack: dF(4), defense: dF(4), damage: dF(4) },
  ],
  [
    "fudge minMidMax+willpower",
    { ...fudgeReq, options: { woundMode: "minMidMax", willpowerVsPenalty: { difficulty: 0 } } },
    { attack: dF(4), defense: dF(4), damage: dF(3, 1, 6), attackerWill: dF(4), defenderWill: dF(4) },
  ],
  [
    "fudge gmJudgement roll",
    { ...fudgeReq, options: { woundMode: "gmJudgement", gmSituationalRoll: true }, situation: { gmLevel: "hurt" } },
    { attack: dF(4), defense: dF(4), situational: dF(4) },
  ],
  ["fate", fateReq, { attack: dF(4), defense: dF(4) }],
  ["volt", voltReq, { attack: dF(2, 1, 20), damage: dF(2, 1, 20) }],
  ["volt stun weapon", stunVolt, { attack: dF(2, 1, 20), damage: dF(2, 1, 20), injuryDamage: dF(2, 1, 20) }],
  ["miniatures", miniReq, { attack: dF(4), crash: dF(4) }],
];
for (const [label, req, slots] of DICE_CASES) {
  // A miss (the attacker's lowest faces, the defender's highest: later slots unread) and a hit: valid faces of every slot.
  for (const [roll, atk, def] of [
    ["miss", "lo", "hi"],
    ["hit", "hi", "lo"],
  ]) {
    const valid = Object.fromEntries(
      Object.entries(slots).map(([id, d]) => [
        id,
        Array(d.n).fill(id === "defense" ? d[def] : id === "attack" ? d[atk] : d.lo),
      ]),
    );
    if (req.preset === "volt") valid.attack = roll === "miss" ? [20, 20] : [1, 2]; // 2d20 under the attack value hits
    if (req.preset === "miniatures") valid.crash = [0, 0, 0, 0];
    if (req.preset === "miniatures" && roll === "hit") valid.attack = [1, 1, 1, 0];
    add(
      "dice",
      "resolve",
      `${label} ${roll}: every slot valid`,
      JSON.stringify({ ...req, dice: valid }),
      undefined,
      "answered",
    );
    for (const [id, d] of Object.entries(slots)) {
      const f = valid[id];
      for (const [what, bad] of [
        ["face above", [d.hi + 1, ...f.slice(1)]],
        ["face below", [d.lo - 1, ...f.slice(1)]],
        ["one face more", [...f, f[0]]],
        ["one face less", f.slice(1)],
        ["a fraction", [0.5, ...f.slice(1)]],
        ["text", ["1", ...f.slice(1)]],
        ["null", null],
        ["not a list", 3],
      ])
        add(
          "dice",
          "resolve",
          `${label} ${roll}: ${id} ${what}`,
          JSON.stringify({ ...req, dice: { ...valid, [id]: bad } }),
          undefined,
          "refused",
        );
    }
    for (const unknown of [
      "damge",
      "zzUnknown",
      "Attack",
      "attack ",
      "injuryDamage",
      "damage",
      "scale",
      "crash",
      "__proto__",
      "constructor",
    ])
      if (!(unknown in slots))
        add(
          "dice",
          "resolve",
          `${label} ${roll}: unknown slot ${JSON.stringify(unknown)}`,
          JSON.stringify({ ...req, dice: { ...valid, [unknown]: [1] } }),
          undefined,
          "refused",
        );
  }
}

// 4. Documented limits at and one past each maximum.
// 1e999 is how JSON spells Infinity (JSON.stringify would write null).
const lim = (what, command, req, expect) =>
  add(
    "limits",
    command,
    what,
    JSON.stringify(req, (_, v) => (v === Infinity ? "\u0002INF" : v)).replaceAll('"\\u0002INF"', "1e999"),
    undefined,
    expect,
  );
const F = duel(fudgeReq);
for (const [field, ok, bad] of [
  ["maxStates", [1, 1_000_000], [0, 1_000_001, -1, 1.5]],
  ["budgetMs", [1, 60_000], [0, 60_001, -1, 1e999]],
  ["tolerance", [1e-9, 0.5], [9e-10, 0, -1, 2]],
  ["maxBytes", [1_000_000, 600_000_000], [999_999, 600_000_001, 1.5, -1]],
]) {
  for (const v of ok) lim(`forecast ${field} ${v}`, "forecast", { ...F, [field]: v }, "answer or budget refusal");
  for (const v of bad) lim(`forecast ${field} ${v}`, "forecast", { ...F, [field]: v }, "refused");
}
const S = { ...F, method: "sample", samples: 100 };
for (const [field, ok, bad] of [
  ["samples", [100, 1_000_000], [99, 1_000_001]],
  ["seed", [0, 4_294_967_295], [-1, 4_294_967_296]],
  ["maxExchanges", [1, 100_000], [0, 100_001]],
]) {
  for (const v of ok) lim(`sample ${field} ${v}`, "forecast", { ...S, [field]: v }, "answer or budget refusal");
  for (const v of bad) lim(`sample ${field} ${v}`, "forecast", { ...S, [field]: v }, "refused");
}
// Largest tracks: 12 levels of 20 boxes (box), 100 Volt rows, Volt Damage 994/995.
const LEVEL_KEYS = ["scratch", "hurt", "veryHurt", "incapacitated", "nearDeath"]; // the keys the default options name (graze table)
const bigLevels = (n, boxes) =>
  Array.from({ length: n }, (_, i) => ({
    key: LEVEL_KEYS[i] ?? `l${i}`,
    boxes,
    penalty: -Math.min(i, 5),
    effect: i === n - 1 ? "dying" : "penalty",
    min: 1 + 2 * i,
  }));
const bigBox = (n, boxes) => ({ config: { kind: "box", levels: bigLevels(n, boxes) }, state: {} });
for (const [n, b] of [
  [12, 20],
  [13, 20],
  [12, 21],
  [1, 1],
  [0, 1],
  [12, 0],
]) {
  lim(`odds box track ${n}×${b}`, "odds", { ...fudgeReq, defender: { ...fudgeReq.defender, track: bigBox(n, b) } });
  lim(`status box track ${n}×${b}`, "status", { track: bigBox(n, b) });
}
lim("forecast box tracks 12×20 both, default maxStates", "forecast", {
  ...F,
  a: { ...F.a, track: bigBox(12, 20) },
  b: { ...F.b, track: bigBox(12, 20) },
});
lim("forecast box tracks 12×20 both, maxStates 1e6 budget 60 s", "forecast", {
  ...F,
  a: { ...F.a, track: bigBox(12, 20) },
  b: { ...F.b, track: bigBox(12, 20) },
  maxStates: 1_000_000,
  budgetMs: 60_000,
});
lim("forecast box tracks 12×20 forward, maxStates 1e6 budget 60 s", "forecast", {
  ...F,
  a: { ...F.a, track: bigBox(12, 20) },
  b: { ...F.b, track: bigBox(12, 20) },
  maxStates: 1_000_000,
  budgetMs: 60_000,
  method: "forward",
});
for (const rows of [100, 101, 0, 1, 1e999])
  lim(`odds volt rows ${rows}`, "odds", {
    ...voltReq,
    defender: { ...voltReq.defender, track: { config: { kind: "volt", willpower: 6, rows }, state: { marks: {} } } },
  });
for (const damage of [994, 995, 1e6])
  lim(`odds volt damage ${damage}`, "odds", {
    ...voltReq,
    attacker: { ...voltReq.attacker, weapon: { ...voltReq.attacker.weapon, damage } },
  });
const V = duel(voltReq);
lim("volt forecast rows 100 both, maxStates 1e6 budget 60 s", "forecast", {
  ...V,
  a: { ...V.a, track: { config: { kind: "volt", willpower: 7, rows: 100 }, state: { marks: {} } } },
  b: { ...V.b, track: { config: { kind: "volt", willpower: 6, rows: 100 }, state: { marks: {} } } },
  maxStates: 1_000_000,
  budgetMs: 60_000,
});
lim("volt Leroy vs Leroy sample 1e6 maxExchanges 1e5 budget 60 s", "forecast", {
  preset: "volt",
  a: "Leroy",
  b: "Leroy",
  method: "sample",
  samples: 1_000_000,
  maxExchanges: 100_000,
  budgetMs: 60_000,
});
lim("volt Leroy vs Leroy product maxStates 1e6 budget 60 s", "forecast", {
  preset: "volt",
  a: "Leroy",
  b: "Leroy",
  method: "product",
  maxStates: 1_000_000,
  budgetMs: 60_000,
});
lim("volt Leroy vs Leroy phases maxStates 1e6 budget 60 s", "forecast", {
  preset: "volt",
  a: "Leroy",
  b: "Leroy",
  method: "phases",
  maxStates: 1_000_000,
  budgetMs: 60_000,
});
lim("volt Leroy vs Leroy forward maxStates 1e6 budget 60 s tol 1e-9", "forecast", {
  preset: "volt",
  a: "Leroy",
  b: "Leroy",
  method: "forward",
  maxStates: 1_000_000,
  budgetMs: 60_000,
  tolerance: 1e-9,
});
lim("miniatures Brutas vs Yanni maxStates 1e6 budget 60 s", "forecast", {
  preset: "miniatures",
  a: "Brutas",
  b: "Yanni",
  maxStates: 1_000_000,
  budgetMs: 60_000,
});
lim("miniatures Brutas vs Yanni forward tol 1e-9 maxStates 1e6", "forecast", {
  preset: "miniatures",
  a: "Brutas",
  b: "Yanni",
  method: "forward",
  maxStates: 1_000_000,
  budgetMs: 60_000,
  tolerance: 1e-9,
});
for (const p of PRESETS)
  for (const m of ["chain", "forward", "phases", "product", "sample"]) {
    const [x, y] = NAMES[p];
    lim(`${p} forecast method ${m}`, "forecast", { preset: p, a: x, b: y, method: m, samples: 1000 });
  }
// Options through the command line.
for (const [o, v] of [
  ["samples", "1e999"],
  ["samples", "-0"],
  ["samples", "0x10"],
  ["seed", " 5 "],
  ["method", ""],
  ["samples", ""],
  ["__proto__", "1"],
  ["constructor", "x"],
  ["seed", "4294967296"],
])
  add(
    "options",
    "forecast",
    `--${o} ${JSON.stringify(v)}`,
    JSON.stringify({ preset: "fudge", a: "Leroy", b: "Theodora", method: "sample", samples: 100 }),
    [[o, v]],
  );
add("options", "forecast", "--samples on a list request", "[]", [["samples", "5"]]);

// ─── The real CLI (--bin): file inputs, convert-fudge-rpg, the largest requests ─────────────
const binProbes = [];
if (args.includes("--bin")) {
  const dir = mkdtempSync(join(tmpdir(), "cli-probe-"));
  const file = (name, text) => (writeFileSync(join(dir, name), text), join(dir, name));
  const actor = JSON.parse(readFileSync(new URL("../tests/fixtures/fudge-rpg/brannoc.json", import.meta.url), "utf8"));
  const withNotes = (notes) =>
    file(`notes-${binProbes.length}.json`, JSON.stringify({ ...actor, system: { ...actor.system, notes } }));
  const big = {
    scratch: 0,
    hurt: 1,
    veryHurt: 2,
    incapacitated: 3,
    nearDeath: 4,
    l5: 5,
    l6: 6,
    l7: 7,
    l8: 8,
    l9: 9,
    l10: 10,
    l11: 11,
  };
  const levels = Object.entries(big).map(([key, i]) => ({
    key,
    boxes: 20,
    penalty: -Math.min(i, 3),
    effect: i === 11 ? "dying" : "penalty",
    min: 1 + 2 * i,
  }));
  const side = (name) => ({
    name,
    skill: 2,
    weapon: { name: "w", size: "medium" },
    track: { config: { kind: "box", levels }, state: {} },
  });
  const b = (what, argv, input = "", expect = "any") => binProbes.push({ what, argv, input, expect });
  b("odds /dev/zero (endless file)", ["odds", "/dev/zero"], "", 2);
  b("odds a folder", ["odds", tmpdir()], "", 2);
  b("odds a missing file", ["odds", join(dir, "nope.json")], "", 2);
  b("odds 5 MB on stdin", ["odds"], `{"preset":"fudge","x":"${"y".repeat(5_000_000)}"}`, 2);
  b("odds 8,000 levels deep", ["odds"], `{"preset":"fudge","attacker":${"[".repeat(8000)}${"]".repeat(8000)}}`, 2);
  b("unknown command of 5,000 letters", ["z".repeat(5000)], "{}", 2);
  b(
    "forecast --samples 1e999",
    ["forecast", "--samples", "1e999", "--method", "sample"],
    JSON.stringify({ preset: "fudge", a: "Leroy", b: "Theodora" }),
    2,
  );
  b("convert-fudge-rpg /dev/zero", ["convert-fudge-rpg", "/dev/zero"], "", 2);
  b("convert-fudge-rpg a folder", ["convert-fudge-rpg", tmpdir()], "", 2);
  b(
    "convert-fudge-rpg --out-dir naming a file",
    ["convert-fudge-rpg", "--out-dir", file("a-file", ""), withNotes("")],
    "",
    2,
  );
  b(
    "convert-fudge-rpg notes of 800,000 nested <div>",
    ["convert-fudge-rpg", withNotes("<div>".repeat(800_000))],
    "",
    0,
  );
  b("convert-fudge-rpg notes of 4 MB of <", ["convert-fudge-rpg", withNotes("<".repeat(4_000_000))], "", 0);
  b("convert-fudge-rpg notes of 400,000 unclosed <li", ["convert-fudge-rpg", withNotes("<li ".repeat(400_000))], "", 0);
  b(
    "forecast 12×20 box tracks, default budget",
    ["forecast"],
    JSON.stringify({ preset: "fudge", a: side("A"), b: side("B") }),
    2,
  );
  b(
    "forecast 12×20 box tracks, maxStates 1e6, budgetMs 60,000",
    ["forecast"],
    JSON.stringify({ preset: "fudge", a: side("A"), b: side("B"), maxStates: 1_000_000, budgetMs: 60_000 }),
    2,
  );
  b(
    "forecast 12×20 forward, maxStates 1e6, tolerance 1e-9",
    ["forecast"],
    JSON.stringify({
      preset: "fudge",
      a: side("A"),
      b: side("B"),
      maxStates: 1_000_000,
      budgetMs: 60_000,
      method: "forward",
      tolerance: 1e-9,
    }),
    2,
  );
  b(
    "forecast Volt Leroy vs Leroy forward, maxStates 1e6, tolerance 1e-9",
    ["forecast"],
    JSON.stringify({
      preset: "volt",
      a: "Leroy",
      b: "Leroy",
      maxStates: 1_000_000,
      budgetMs: 60_000,
      method: "forward",
      tolerance: 1e-9,
    }),
    2,
  );
  b(
    "forecast Volt Leroy vs Leroy, 1e6 samples of ≤ 1e5 exchanges",
    ["forecast"],
    JSON.stringify({
      preset: "volt",
      a: "Leroy",
      b: "Leroy",
      method: "sample",
      samples: 1_000_000,
      maxExchanges: 100_000,
      budgetMs: 60_000,
    }),
  );
  b(
    "forecast Volt Leroy vs Theodora, maxStates 1e6",
    ["forecast"],
    JSON.stringify({ preset: "volt", a: "Leroy", b: "Theodora", maxStates: 1_000_000, budgetMs: 60_000 }),
  );
  b(
    "forecast Miniatures Brutas vs Yanni, maxStates 1e6",
    ["forecast"],
    JSON.stringify({ preset: "miniatures", a: "Brutas", b: "Yanni", maxStates: 1_000_000, budgetMs: 60_000 }),
  );
}
const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
function runBin(p) {
  const bin = new URL("../bin/fudge-rules.mjs", import.meta.url).pathname;
  const argv = timeBin
    ? [timeBin, "-f", "\n%M KB %e s", process.execPath, bin, ...p.argv]
    : [process.execPath, bin, ...p.argv];
  const t0 = Date.now();
  const r = spawnSync(argv[0], argv.slice(1), {
    input: p.input,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = Date.now() - t0;
  const rss = timeBin ? /(\d+) KB [\d.]+ s\s*$/.exec(r.stderr)?.[1] : undefined;
  const err = timeBin
    ? r.stderr.replace(/(Command exited with non-zero status \d+\n)?\n?\d+ KB [\d.]+ s\s*$/, "")
    : r.stderr;
  const last = err.trim().split("\n").pop() ?? "";
  let verdict;
  let note = "";
  if (r.error?.code === "ETIMEDOUT") verdict = "DEFECT hang (60 s)";
  else if (r.status === 0) verdict = p.expect === 2 ? "DEFECT answered" : "answered";
  else if (r.status === 2) {
    try {
      const e = JSON.parse(last);
      verdict =
        last.length >= 1024
          ? "DEFECT line ≥ 1 KB"
          : !(e.key in en)
            ? "DEFECT key not in lang/en.json"
            : /Budget|TooManyStates/.test(e.key)
              ? "budget refusal (exit 2)"
              : "refused (exit 2)";
      note = `${e.key} field=${JSON.stringify(e.field)}`;
    } catch {
      verdict = p.argv.length === 0 ? "usage (exit 2)" : "DEFECT exit 2 without a JSON line";
    }
  } else verdict = `DEFECT exit ${r.status}`;
  if (verdict.startsWith("DEFECT") && !note) note = last.slice(0, 200);
  return {
    group: "bin",
    command: p.argv[0]?.slice(0, 20),
    what: p.what,
    verdict,
    note: `${note} peak ${rss ? `${Math.round(rss / 1024)} MB` : "?"}`,
    ms,
  };
}

// ─── Run and judge ─────────────────────────────────────────────────────────────────────────
const selected = probes.filter(
  (p) => (!only || only.includes(p.command)) && (!argOf("--group") || p.group.startsWith(argOf("--group"))),
);
const results = [];
const t0 = Date.now();
for (const [i, p] of selected.entries()) {
  const r = await ask({ i, command: p.command, text: p.text, options: p.options });
  let verdict;
  let note = "";
  if (r.dead === "hang") verdict = "DEFECT hang";
  else if (r.dead === "oom") verdict = "memory budget (exit 2)";
  else if (r.dead) verdict = "DEFECT worker died";
  else if (r.crash) verdict = "DEFECT crash (exit 1)";
  else if (r.polluted) verdict = "DEFECT prototype polluted";
  else if (r.ok !== undefined) verdict = r.nan ? "DEFECT NaN/Infinity in answer" : "answered";
  else {
    const line = r.line;
    const e = r.error;
    const budget = /Budget|TooManyStates/.test(e.key);
    if (line.length >= 1024) verdict = "DEFECT line ≥ 1 KB";
    else if (!(e.key in en)) verdict = "DEFECT key not in lang/en.json";
    else verdict = budget ? "budget refusal (exit 2)" : "refused (exit 2)";
    note = `${e.key} field=${JSON.stringify(e.field)}`;
  }
  if (r.dead) {
    note = r.dead;
  }
  if (r.crash) note = r.crash.split("\n").slice(0, 3).join(" | ");
  if (p.expect === "refused" && verdict === "answered") verdict = "DEFECT accepted past a limit";
  if (p.expect === "answered" && verdict !== "answered") verdict = "DEFECT refused a valid request";
  results.push({ ...p, text: undefined, verdict, note, ms: r.ms });
  if ((i + 1) % 500 === 0)
    process.stderr.write(`${i + 1}/${selected.length} probes, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
await worker.terminate();
for (const p of binProbes) {
  results.push(runBin(p));
  process.stderr.write(`bin: ${p.what}: ${results.at(-1).verdict}\n`);
}

// Summary by group and verdict, then each defect and each slow probe.
const count = new Map();
for (const r of results) {
  const k = `${r.group}\t${r.verdict}`;
  count.set(k, (count.get(k) ?? 0) + 1);
}
const lines = [
  `# fudge-rules hostile-input probe: ${results.length} probes, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  "",
  "| group | verdict | probes |",
  "|---|---|---|",
];
for (const [k, n] of [...count].sort()) lines.push(`| ${k.replace("\t", " | ")} | ${n} |`);
const defects = results.filter((r) => r.verdict.startsWith("DEFECT"));
lines.push("", `## Defects (${defects.length})`, "");
for (const d of defects) lines.push(`- [${d.group}] ${d.command}: ${d.what} → ${d.verdict}: ${d.note}`);
const slow = results.filter((r) => r.ms > 5_000).sort((a, b) => b.ms - a.ms);
lines.push("", `## Slow (> 5 s in-process; ${slow.length})`, "");
for (const s of slow) lines.push(`- ${s.command}: ${s.what} → ${s.verdict} ${s.note} in ${(s.ms / 1000).toFixed(1)} s`);
lines.push("", "## Limits", "");
for (const r of results.filter(
  (r) =>
    r.group === "limits" ||
    r.group === "options" ||
    r.group === "bin" ||
    (r.group === "base" && r.verdict !== "answered"),
))
  lines.push(
    `- ${r.command}: ${r.what} → ${r.verdict} ${r.note} (${r.ms === undefined ? "-" : `${Math.round(r.ms)} ms`})`,
  );
const report = `${lines.join("\n")}\n`;
if (outFile) writeFileSync(outFile, report);
if (jsonlFile) writeFileSync(jsonlFile, results.map((r) => JSON.stringify(r)).join("\n"));
process.stdout.write(report);
process.exitCode = defects.length ? 1 : 0;
