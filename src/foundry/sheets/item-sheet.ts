/**
 * One item sheet for every item type (the template switches on the type). Context from
 * src/system's itemSheetContext; fields submit on change and are validated by the data models.
 * The description's toggled <prose-mirror> fires "change" when its saved HTML differs, so the
 * form's submitOnChange saves it, once (a listener on its "save" would submit it a second time).
 */
import type { ItemType } from "../../system/data";
import { TEMPLATES } from "../../system/handlebars";
import { itemSheetContext } from "../../system/sheet";
import { plainItem, worldRules } from "../bridge";
import { ladderNames, reportError } from "../foundry-util";
import { enrichRichText } from "../rich-text";

const { HandlebarsApplicationMixin } = foundry.applications.api;
const { ItemSheetV2 } = foundry.applications.sheets;

export class FudgeItemSheet extends HandlebarsApplicationMixin(ItemSheetV2) {
  static override DEFAULT_OPTIONS = {
    classes: ["fudge-wounds", "sheet", "item"],
    position: { width: 520, height: 560 },
    window: { resizable: true },
    form: { submitOnChange: true, closeOnSubmit: false },
    actions: { editImage: FudgeItemSheet.onEditImage },
  };

  static async onEditImage(this: FudgeItemSheet, _event: Event, target: HTMLElement): Promise<void> {
    const doc = (this as unknown as { document: Item.Implementation }).document;
    const attr = target.dataset.edit ?? "img";
    const current = String(foundry.utils.getProperty(doc, attr) ?? "");
    const FP = foundry.applications.apps.FilePicker.implementation;
    await new FP({
      type: "image",
      current,
      callback: (path: string) => doc.update({ [attr]: path } as never).catch((e) => reportError(e)), // not awaited by the picker
    } as never).browse(current);
  }

  override async _prepareContext(options: Parameters<InstanceType<typeof ItemSheetV2>["_prepareContext"]>[0]) {
    const base = await super._prepareContext(options);
    const self = this as unknown as { document: Item.Implementation; isEditable: boolean };
    const doc = self.document as unknown as Parameters<typeof plainItem>[0];
    const enrichedDescription = await enrichRichText(
      (self.document.system as unknown as { description?: string }).description,
      self.document,
    );
    return Object.assign(
      base,
      itemSheetContext(plainItem(doc), worldRules(), {
        editable: self.isEditable,
        ladderNames: ladderNames(),
        enrichedDescription,
        uuid: self.document.uuid,
        owner: ownerSkills(self.document),
      }),
    );
  }
}

/** The owning actor's skill names and default level: a weapon's skill is picked from them. */
function ownerSkills(item: Item.Implementation): { skills: string[]; defaultLevel: number } | undefined {
  const actor = item.parent as unknown as {
    type: string;
    items: Iterable<{ type: string; name: string }>;
    system: { defenseDefault?: number };
  } | null;
  if (!actor || actor.type === "miniature") return undefined;
  return {
    skills: [...actor.items].filter((i) => i.type === "skill").map((i) => i.name),
    defaultLevel: actor.system.defenseDefault ?? 0,
  };
}

const part = (type: ItemType) => ({ sheet: { template: `systems/fudge-wounds/${TEMPLATES[type]}`, scrollable: [""] } });

/** One sheet class per item type, each with its own template. */
export const ITEM_SHEETS = {
  weapon: class WeaponSheet extends FudgeItemSheet {
    static override PARTS = part("weapon");
  },
  armor: class ArmorSheet extends FudgeItemSheet {
    static override PARTS = part("armor");
  },
  shield: class ShieldSheet extends FudgeItemSheet {
    static override PARTS = part("shield");
  },
  gift: class GiftSheet extends FudgeItemSheet {
    static override PARTS = part("gift");
  },
  fault: class FaultSheet extends FudgeItemSheet {
    static override PARTS = part("fault");
  },
  skill: class SkillSheet extends FudgeItemSheet {
    static override PARTS = part("skill");
  },
} satisfies Record<ItemType, typeof FudgeItemSheet>;
