/**
 * A resolution explains itself as a list of steps that a chat card renders line by line.
 * `key` is an i18n key (FUDGE.Step.*) whose English text lives in lang/en.json; `params` fill
 * its placeholders; `rule` names the source text that the step applies.
 */
export interface Step {
  key: string;
  rule: string;
  value?: number;
  params?: Record<string, string | number>;
}

export const step = (key: string, rule: string, value?: number, params?: Record<string, string | number>): Step => {
  const s: Step = { key, rule };
  if (value !== undefined) s.value = value;
  if (params !== undefined) s.params = params;
  return s;
};

/** Signed number as players write it: +2, 0, −1 (true minus sign). */
export function signed(n: number): string {
  // Whole numbers a card shows (totals, factors, modifiers) come from a table: no new string.
  if (n >= -SIGNED_SPAN && n <= SIGNED_SPAN && Number.isInteger(n)) return SIGNED[n + SIGNED_SPAN];
  return signedText(n);
}

function signedText(n: number): string {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

const SIGNED_SPAN = 100;
const SIGNED: readonly string[] = Array.from({ length: 2 * SIGNED_SPAN + 1 }, (_, i) => signedText(i - SIGNED_SPAN));
