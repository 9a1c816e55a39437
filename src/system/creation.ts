/**
 * The character sheet's creation panel: the world's method (Fudge §1.5 subjective, §1.6
 * objective, SRD Five-Point Fudge) and the counters the rules core derives from the character's
 * traits — never typed. Over budget is a warning, never a block (the table decides).
 */
import {
  defaultFivePointOptions,
  fivePointBudget,
  objectiveBudget,
  parseFivePointRows,
  type CreationTraits,
  type FivePointRow,
  type Pool,
} from "../rules/fudge";
import { RulesError } from "../rules";
import { attributeLevel } from "./attributes";
import type { ActorDoc, CharacterData, CreationRules, SkillData, WorldRules } from "./data";
import { itemsOf } from "./combatant";

export interface CreationLine {
  key: string;
  params: Record<string, string | number>;
  /** This line's pool is short: the line is a warning. */
  over: boolean;
  /** A stable name for tests and styles (attributes, skills, gifts, faults, points …). */
  id: string;
}

export interface CreationView {
  method: WorldRules["creation"]["method"];
  titleKey: string;
  /** The text's section, shown with the title. */
  section: string;
  lines: CreationLine[];
  trades: { key: string; params: Record<string, string | number> }[];
  warnings: { key: string; params: Record<string, string | number> }[];
  over: boolean;
}

/** The traits the budgets count: the world's attributes, the skills (with groups), gifts and faults. */
export function creationTraits(actor: ActorDoc<"character" | "npc">, rules: WorldRules): CreationTraits {
  const d = actor.system as CharacterData;
  return {
    attributes: rules.attributeSet.attributes.map((a) => attributeLevel(d.attributes, a.key)),
    skills: itemsOf(actor, "skill").map((s) => ({
      level: (s.system as SkillData).level,
      group: (s.system as Partial<SkillData>).group ?? "",
    })),
    gifts: itemsOf(actor, "gift").length,
    faults: itemsOf(actor, "fault").length,
  };
}

const line = (id: string, key: string, p: Pool, over = p.left < 0): CreationLine => ({
  id,
  key,
  params: { free: p.free, spent: p.spent, left: p.left },
  over,
});

/** The creation panel of a character, or null where it has none (NPCs, miniatures). */
export function creationView(actor: ActorDoc, rules: WorldRules): CreationView | null {
  if (actor.type !== "character") return null;
  const c = rules.creation;
  const t = creationTraits(actor as ActorDoc<"character">, rules);
  if (c.method === "subjective")
    return {
      method: "subjective",
      titleKey: "FUDGE.Creation.Method.subjective",
      section: "§1.5",
      lines: [],
      trades: [],
      warnings: [],
      over: false,
    };
  if (c.method === "objective") {
    // Fudge §1.6: free levels of each kind, then the §1.64 trades between them.
    const b = objectiveBudget(t, c);
    return {
      method: "objective",
      titleKey: "FUDGE.Creation.Method.objective",
      section: "§1.6",
      lines: [
        line("attributes", "FUDGE.Creation.AttributeLevels", b.attributes),
        line("skills", "FUDGE.Creation.SkillLevels", b.skills),
        line("gifts", "FUDGE.Creation.Gifts", b.gifts),
        { id: "faults", key: "FUDGE.Creation.Faults", params: { count: b.faults }, over: false },
      ],
      trades: b.trades.map((tr) => ({
        key: `FUDGE.Creation.Trade.${tr.from}.${tr.to}`,
        params: { given: tr.given, received: tr.received },
      })),
      warnings: b.over.map((k) => ({ key: `FUDGE.Creation.Over.${k}`, params: {} })),
      over: b.over.length > 0,
    };
  }
  const warnings: CreationView["warnings"] = [];
  const o = {
    ...defaultFivePointOptions(),
    points: c.fivePointPoints,
    freeGifts: c.freeGifts,
    rows: gmRows(c, warnings),
  };
  const b = fivePointBudget(t, o);
  if (b.points.left < 0) warnings.push({ key: "FUDGE.Creation.Over.points", params: {} });
  if (b.ungrouped) warnings.push({ key: "FUDGE.Creation.Ungrouped", params: { count: b.ungrouped } });
  for (const g of b.beyondTable) warnings.push({ key: "FUDGE.Creation.BeyondTable", params: { group: g } });
  for (const g of b.groupsOverMax) warnings.push({ key: "FUDGE.Creation.GroupOverMax", params: { group: g } });
  if (b.tooFewGroups) warnings.push({ key: "FUDGE.Creation.TooFewGroups", params: { min: o.minGroups } });
  const balance = b.attributes.left + b.gifts.left + b.faults.left;
  if (balance < 0) warnings.push({ key: "FUDGE.Creation.Over.traits", params: {} });
  return {
    method: "fivePoint",
    titleKey: "FUDGE.Creation.Method.fivePoint",
    section: "SRD",
    lines: [
      line("points", "FUDGE.Creation.Points", b.points),
      ...b.groups.map((g) => ({
        id: `group-${g.group}`,
        key: g.points === null ? "FUDGE.Creation.GroupBeyond" : `FUDGE.Creation.Group.${g.focus}`,
        params: { group: g.group, points: g.points ?? "", count: g.levels.length },
        over: g.points === null,
      })),
      line("attributes", "FUDGE.Creation.AttributeLevels", b.attributes, balance < 0),
      line("gifts", "FUDGE.Creation.Gifts", b.gifts, balance < 0),
      { id: "faults", key: "FUDGE.Creation.Faults", params: { count: b.faults.spent }, over: false },
    ],
    trades: [],
    warnings,
    over: warnings.length > 0,
  };
}

/** The GM's Five-Point rows; a stored table that does not read is set aside with a warning, never a block. */
function gmRows(c: CreationRules, warnings: CreationView["warnings"]): FivePointRow[] {
  try {
    return parseFivePointRows(c.fivePointRows ?? [], "creation.fivePointRows");
  } catch {
    warnings.push({ key: "FUDGE.Creation.RowsUnread", params: {} });
    return [];
  }
}

/**
 * An item dropped on an actor's sheet (a compendium entry or another actor's item): refused with
 * a sentence when the actor's kind has no place for it — a miniature's datacard has no skills
 * (Fudge Miniatures: The datacard).
 */
export function checkItemDrop(actorType: string, itemType: string, actorName: string): void {
  if (actorType === "miniature" && itemType === "skill")
    throw new RulesError("item", "FUDGE.Error.Drop.MiniatureSkill", "a miniature's datacard has no skills", {
      name: actorName,
    });
}
