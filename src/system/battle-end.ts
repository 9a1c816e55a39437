/**
 * The chat note the GM's client posts when a combat ends and Willpower adjustments that held
 * "until the battle is over" lapse (Fudge §4.52 (4)): one card for the combat, one line per
 * recorded lapse, each led by the actor's name — the answer first, in the game's words ("Hurt
 * becomes Very Hurt"). Pure: built from what endBattleFor reports (src/system/actions/attack-card.ts);
 * drawn by templates/chat/battle-end.hbs, where names are escaped.
 */

/**
 * What the battle's end did with one recorded lapse: "lapsed" (the wound went to its level),
 * "gone" (no such wound left: healed, cleared, or the character is dead), "refused" (the record
 * is not one the rules accept: left as it is). `from`/`to` are level names (an i18n key, or a
 * custom level's own label); `reason` is the refusal as a template's { key, params }.
 */
export interface LapseNote {
  result: "lapsed" | "gone" | "refused";
  from: string;
  to: string;
  reason?: { key: string; params: Record<string, string | number> };
}

export interface BattleEndEntry {
  name: string;
  notes: readonly LapseNote[];
}

export interface BattleEndLine {
  name: string;
  result: LapseNote["result"];
  key: string;
  params: Record<string, string | number>;
  reason: LapseNote["reason"] | null;
}

export interface BattleEndNoteContext {
  titleKey: string;
  lines: BattleEndLine[];
}

const LINE_KEYS: Record<LapseNote["result"], string> = {
  lapsed: "FUDGE.BattleEnd.Lapsed",
  gone: "FUDGE.BattleEnd.Gone",
  refused: "FUDGE.BattleEnd.Refused",
};

/** The note's render model; null when no actor had a lapse to report (nothing is posted). */
export function battleEndNote(entries: readonly BattleEndEntry[]): BattleEndNoteContext | null {
  const lines = entries.flatMap((e) =>
    e.notes.map((n) => ({
      name: e.name,
      result: n.result,
      key: LINE_KEYS[n.result],
      params: { from: n.from, to: n.to },
      reason: n.reason ?? null,
    })),
  );
  return lines.length ? { titleKey: "FUDGE.BattleEnd.Title", lines } : null;
}
