/**
 * The system's own Handlebars helpers. Foundry (src/foundry) calls `registerHelpers(Handlebars,
 * i18n)` with an adapter over game.i18n; tests and the playground call it with
 * `dictionaryI18n(lang)`, after playground/foundry-core-helpers.ts has stood in for the core
 * helpers Foundry registers itself (`localize`, `eq`, `selectOptions` …).
 *
 * Every helper returns plain strings, which Handlebars escapes: no helper returns SafeString
 * built from user data, and templates never use triple braces on user data.
 */
import { levelWithNumber, describeLevel, type Ladder, DEFAULT_LADDER, signed } from "../rules";
import { KEY_PATTERN, type SystemI18n } from "./i18n";
import type { LevelView } from "./view";

/** The subset of the Handlebars API the helpers need (the real module or Foundry's global). */
export interface HandlebarsLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Handlebars' own helper type takes any arguments
  registerHelper(name: string, fn: (...args: any[]) => unknown): void;
}

interface HelperOptions {
  hash?: Record<string, unknown>;
  fn?: (ctx: unknown) => string;
  inverse?: (ctx: unknown) => string;
}

const isOptions = (v: unknown): v is HelperOptions => typeof v === "object" && v !== null && "hash" in (v as object);

export interface RegisterOptions {
  /** Ladder used by the `fudgeLadder` helper (names localized by the caller). */
  ladder?: () => Ladder;
}

/**
 * Every helper the system registers carries the `fudge` prefix: Foundry's core helpers (`eq ne lt
 * gt lte gte not and or`, `localize`, `selectOptions` …) are shared by every package, so replacing
 * one would change every module's templates. Templates use the core ones as Foundry defines them.
 */
export const HELPER_NAMES = [
  "fudgeLocalize",
  "fudgeFormat",
  "fudgeText",
  "fudgeLevel",
  "fudgeSigned",
  "fudgeLadder",
  "fudgeLadderName",
] as const;

export function registerHelpers(hb: HandlebarsLike, i18n: SystemI18n, opts: RegisterOptions = {}): void {
  const ladder = opts.ladder ?? (() => DEFAULT_LADDER);
  const loc = (key: unknown, options?: unknown): string => {
    const k = String(key ?? "");
    const hash = isOptions(options) ? (options.hash ?? {}) : {};
    return Object.keys(hash).length ? i18n.format(k, hash) : i18n.localize(k);
  };
  hb.registerHelper("fudgeLocalize", loc);
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
  /** {{fudgeSigned n}} → "+2", "0", "−1" (true minus). */
  hb.registerHelper("fudgeSigned", (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? signed(n) : ""));
  /** {{fudgeLadder n}} → "Great (+2)": names and numbers together (Fudge §1.3). */
  hb.registerHelper("fudgeLadder", (n: unknown) =>
    typeof n === "number" && Number.isInteger(n) ? levelWithNumber(n, ladder()) : "",
  );
  /** {{fudgeLadderName n}} → "Great" / "Superb +2". */
  hb.registerHelper("fudgeLadderName", (n: unknown) =>
    typeof n === "number" && Number.isInteger(n) ? describeLevel(n, ladder()).label : "",
  );
}

/** Template paths (relative to the system root), for Foundry's loadTemplates and the playground. */
export const TEMPLATES = {
  character: "templates/actor/character-sheet.hbs",
  npc: "templates/actor/character-sheet.hbs",
  miniature: "templates/actor/miniature-sheet.hbs",
  limited: "templates/actor/limited-sheet.hbs",
  weapon: "templates/item/weapon-sheet.hbs",
  armor: "templates/item/armor-sheet.hbs",
  shield: "templates/item/shield-sheet.hbs",
  gift: "templates/item/trait-sheet.hbs",
  fault: "templates/item/trait-sheet.hbs",
  skill: "templates/item/skill-sheet.hbs",
  attackCard: "templates/chat/attack-card.hbs",
  rollCard: "templates/chat/roll-card.hbs",
  battleEnd: "templates/chat/battle-end.hbs",
  attackDialog: "templates/dialog/attack-dialog.hbs",
  healDialog: "templates/dialog/heal-dialog.hbs",
  defenceDialog: "templates/dialog/defence-dialog.hbs",
  rollDialog: "templates/dialog/roll-dialog.hbs",
  gutsDialog: "templates/dialog/guts-dialog.hbs",
  awardDialog: "templates/dialog/award-dialog.hbs",
  raiseDialog: "templates/dialog/raise-dialog.hbs",
  rulesMenu: "templates/settings/rules-menu.hbs",
  trackerWound: "templates/parts/tracker-wound.hbs",
} as const;

/**
 * Partials: name → path. Foundry: `loadTemplates(PARTIALS)` (v13 registers each under its
 * name); tests and the playground: `Handlebars.registerPartial(name, source)`.
 */
export const PARTIALS = {
  "fudge-wound-track": "templates/parts/wound-track.hbs",
  "fudge-track-row": "templates/parts/track-row.hbs",
  "fudge-track-box": "templates/parts/track-box.hbs",
  "fudge-odds": "templates/parts/odds.hbs",
  "fudge-sheet-tabs": "templates/parts/sheet-tabs.hbs",
  "fudge-wound-bar": "templates/parts/wound-bar.hbs",
  "fudge-custom-track": "templates/parts/custom-track.hbs",
  "fudge-steps": "templates/parts/steps.hbs",
  "fudge-items": "templates/parts/item-list.hbs",
  "fudge-weapons": "templates/parts/weapons.hbs",
  "fudge-actor-header": "templates/parts/actor-header.hbs",
  "fudge-item-header": "templates/parts/item-header.hbs",
  "fudge-rich-text": "templates/parts/rich-text.hbs",
  "fudge-creation": "templates/parts/creation.hbs",
  "fudge-experience": "templates/parts/experience.hbs",
  "fudge-defence-choice": "templates/parts/defence-choice.hbs",
  "fudge-dice-faces": "templates/parts/dice-faces.hbs",
  "fudge-point-offer": "templates/chat/fudge-point-offer.hbs",
  "fudge-tracker-wound": "templates/parts/tracker-wound.hbs",
  "fudge-opposed-roll": "templates/chat/opposed-roll.hbs",
} as const;
