/**
 * The system's own Handlebars helpers. Foundry (src/foundry) calls `registerHelpers(Handlebars,
 * i18n)` with an adapter over game.i18n; tests and the playground call it with
 * `dictionaryI18n(lang)` and `{ localize: true }`, which also registers a `localize` helper
 * that behaves like Foundry's native one (`{{localize "KEY"}}`, `{{localize "KEY" n=1}}`).
 *
 * Every helper returns plain strings, which Handlebars escapes: no helper returns SafeString
 * built from user data, and templates never use triple braces on user data.
 */
import { levelWithNumber, describeLevel, type Ladder, DEFAULT_LADDER } from "../rules/ladder";
import { signed } from "../rules/explain";
import { KEY_PATTERN, type SystemI18n } from "./i18n";
import type { LevelView } from "./view";

/** The subset of the Handlebars API the helpers need (the real module or Foundry's global). */
export interface HandlebarsLike {
  registerHelper(name: string, fn: (...args: any[]) => unknown): void;
}

interface HelperOptions {
  hash?: Record<string, unknown>;
  fn?: (ctx: unknown) => string;
  inverse?: (ctx: unknown) => string;
}

const isOptions = (v: unknown): v is HelperOptions => typeof v === "object" && v !== null && "hash" in (v as object);

/** Drops Handlebars' trailing options argument. */
function args(a: unknown[]): unknown[] {
  return a.length && isOptions(a[a.length - 1]) ? a.slice(0, -1) : a;
}

export interface RegisterOptions {
  /** Also register `localize` (tests and playground; Foundry has its own). */
  localize?: boolean;
  /** Ladder used by the `ladder` helper (names localized by the caller). */
  ladder?: () => Ladder;
}

export const HELPER_NAMES = ["fudgeLocalize", "fudgeFormat", "fudgeText", "fudgeLevel", "signed", "ladder", "ladderName", "eq", "ne", "and", "or", "not", "gt", "lt"] as const;

export function registerHelpers(hb: HandlebarsLike, i18n: SystemI18n, opts: RegisterOptions = {}): void {
  const ladder = opts.ladder ?? (() => DEFAULT_LADDER);
  const loc = (key: unknown, options?: unknown): string => {
    const k = String(key ?? "");
    const hash = isOptions(options) ? options.hash ?? {} : {};
    return Object.keys(hash).length ? i18n.format(k, hash) : i18n.localize(k);
  };
  hb.registerHelper("fudgeLocalize", loc);
  if (opts.localize) hb.registerHelper("localize", loc);
  /** {{fudgeFormat key params}}: a key with a params object (render models carry both). */
  hb.registerHelper("fudgeFormat", (key: unknown, params: unknown) => {
    const p = isOptions(params) || params == null ? {} : (params as Record<string, unknown>);
    return i18n.format(String(key ?? ""), p);
  });
  /** {{fudgeText v}}: an i18n key is localized, anything else (user text) is shown as is. */
  hb.registerHelper("fudgeText", (v: unknown) => {
    const t = typeof v === "string" ? v : v == null ? "" : String(v);
    return KEY_PATTERN.test(t) ? i18n.localize(t) : t;
  });
  /** {{fudgeLevel level}} with a LevelView: "Great (+2)", "Superb +2 (+5)" with the localized rung. */
  hb.registerHelper("fudgeLevel", (v: unknown) => {
    if (!v || typeof v !== "object") return "";
    const l = v as LevelView;
    return `${i18n.localize(l.rungKey)}${l.beyondText ? ` ${l.beyondText}` : ""} (${l.valueText})`;
  });
  /** {{signed n}} → "+2", "0", "−1" (true minus). */
  hb.registerHelper("signed", (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? signed(n) : ""));
  /** {{ladder n}} → "Great (+2)": names and numbers together (Fudge §1.3). */
  hb.registerHelper("ladder", (n: unknown) => (typeof n === "number" && Number.isInteger(n) ? levelWithNumber(n, ladder()) : ""));
  /** {{ladderName n}} → "Great" / "Superb +2". */
  hb.registerHelper("ladderName", (n: unknown) => (typeof n === "number" && Number.isInteger(n) ? describeLevel(n, ladder()).label : ""));
  hb.registerHelper("eq", (...a: unknown[]) => {
    const [x, y] = args(a);
    return x === y;
  });
  hb.registerHelper("ne", (...a: unknown[]) => {
    const [x, y] = args(a);
    return x !== y;
  });
  hb.registerHelper("and", (...a: unknown[]) => args(a).every(Boolean));
  hb.registerHelper("or", (...a: unknown[]) => args(a).some(Boolean));
  hb.registerHelper("not", (...a: unknown[]) => !args(a)[0]);
  hb.registerHelper("gt", (...a: unknown[]) => {
    const [x, y] = args(a);
    return Number(x) > Number(y);
  });
  hb.registerHelper("lt", (...a: unknown[]) => {
    const [x, y] = args(a);
    return Number(x) < Number(y);
  });
}

/** Template paths (relative to the system root), for Foundry's loadTemplates and the playground. */
export const TEMPLATES = {
  character: "templates/actor/character-sheet.hbs",
  npc: "templates/actor/npc-sheet.hbs",
  miniature: "templates/actor/miniature-sheet.hbs",
  weapon: "templates/item/weapon-sheet.hbs",
  armor: "templates/item/armor-sheet.hbs",
  shield: "templates/item/shield-sheet.hbs",
  gift: "templates/item/trait-sheet.hbs",
  fault: "templates/item/trait-sheet.hbs",
  skill: "templates/item/skill-sheet.hbs",
  attackCard: "templates/chat/attack-card.hbs",
  rollCard: "templates/chat/roll-card.hbs",
} as const;

/**
 * Partials: name → path. Foundry: `loadTemplates(PARTIALS)` (v13 registers each under its
 * name); tests and the playground: `Handlebars.registerPartial(name, source)`.
 */
export const PARTIALS = {
  "fudge-wound-track": "templates/parts/wound-track.hbs",
  "fudge-custom-track": "templates/parts/custom-track.hbs",
  "fudge-steps": "templates/parts/steps.hbs",
  "fudge-items": "templates/parts/item-list.hbs",
  "fudge-weapons": "templates/parts/weapons.hbs",
  "fudge-actor-header": "templates/parts/actor-header.hbs",
  "fudge-item-header": "templates/parts/item-header.hbs",
  "fudge-item-description": "templates/parts/item-description.hbs",
} as const;
