/**
 * Data fields and data models as Foundry v13 runs them (foundry.data.fields,
 * foundry.abstract.DataModel / TypeDataModel), reduced to what this system uses.
 *
 * Sources (public): the v13 API docs of DataField#clean, NumberField, StringField, SchemaField,
 * ArrayField, ObjectField, DataModel.migrateData / migrateDataSafe / cleanData, and
 * shared/FOUNDRY-V13.md "Data models and migration"; v13 common/data/fields.mjs for
 * DataField#validate (the `validate` option) and ArrayField's `min` / `max`.
 */

type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
/** foundry.utils.deepClone: plain objects and arrays copied deeply; anything else (class instances, functions) kept by reference. */
export function deepClone<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepClone(x)) as T;
  if (v instanceof Date) return new Date(v) as T;
  if (
    typeof v === "object" &&
    v !== null &&
    (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = deepClone(x);
    return out as T;
  }
  return v;
}

export interface FieldOptions {
  required?: boolean;
  nullable?: boolean;
  initial?: unknown;
  choices?: readonly unknown[] | Record<string, unknown> | (() => unknown);
  blank?: boolean;
  trim?: boolean;
  integer?: boolean;
  min?: number;
  max?: number;
  label?: string;
  hint?: string;
  validateKey?: (k: string) => boolean;
  /**
   * v13 DataFieldOptions#validate: a validator after the type's own; it fails the field by
   * returning false (`validationError`) or throwing (its message), and true ends validation.
   */
  validate?: (value: unknown, options?: unknown) => boolean | void;
  validationError?: string;
}

/** A validation failure at a path ("system.attributes.strength: must be a number"). */
export class DataModelValidationError extends Error {
  constructor(readonly failures: Record<string, string>) {
    super(
      Object.entries(failures)
        .map(([k, v]) => `${k}: ${v}`)
        .join("; "),
    );
    this.name = "DataModelValidationError";
  }
}

export class DataField {
  options: FieldOptions;
  name = "";
  constructor(options: FieldOptions = {}) {
    this.options = { required: false, nullable: false, ...options };
  }
  get required() {
    return !!this.options.required;
  }
  get nullable() {
    return !!this.options.nullable;
  }
  get initial() {
    return this.options.initial;
  }
  getInitialValue(): unknown {
    const i = this.options.initial;
    return typeof i === "function" ? (i as () => unknown)() : deepClone(i);
  }
  /**
   * v13 DataField#clean: an explicit null is kept for nullable fields, otherwise treated as
   * missing; a missing value becomes the initial value (unless a partial update); then the type
   * is cast and cleaned.
   */
  clean(value: unknown, options: { partial?: boolean } = {}): unknown {
    if (value === null) {
      if (this.nullable) return null;
      value = undefined;
    }
    if (value === undefined) return options.partial ? undefined : this.getInitialValue();
    return this._cleanType(this._cast(value), options);
  }
  _cast(value: unknown): unknown {
    return value;
  }
  _cleanType(value: unknown, _options: { partial?: boolean }): unknown {
    return value;
  }
  /** Returns failures by path ("" = this field). */
  validate(value: unknown, path: string, out: Record<string, string>): void {
    if (value === undefined) {
      if (this.required) out[path] = "may not be undefined";
      return;
    }
    if (value === null) {
      if (!this.nullable) out[path] = "may not be null";
      return;
    }
    const f = this._validateType(value);
    if (f) {
      out[path] = f;
      return;
    }
    const own = this.options.validate;
    if (own) {
      try {
        if (own.call(this, value) === false) {
          out[path] = this.options.validationError ?? "is not a valid value";
          return;
        }
      } catch (e) {
        out[path] = String((e as Error)?.message ?? e);
        return;
      }
    }
    this._validateChildren(value, path, out);
  }
  _validateType(_value: unknown): string | undefined {
    return undefined;
  }
  _validateChildren(_value: unknown, _path: string, _out: Record<string, string>): void {}
  protected choiceList(): unknown[] | null {
    let c = this.options.choices;
    if (!c) return null;
    if (typeof c === "function") c = c() as never;
    return Array.isArray(c) ? c : Object.keys(c as Rec);
  }
  /** DataModel#_initialize: the prepared (non-source) copy. */
  initialize(value: unknown): unknown {
    return value;
  }
}

export class BooleanField extends DataField {
  constructor(options: FieldOptions = {}) {
    super({ required: true, nullable: false, initial: false, ...options });
  }
  override _cast(v: unknown) {
    // v13 BooleanField#_cast: the string "true" is true, anything else by truthiness.
    if (typeof v === "string") return v === "true";
    if (typeof v === "object") return false;
    return Boolean(v);
  }
  override _validateType(v: unknown) {
    return typeof v === "boolean" ? undefined : "must be a boolean";
  }
}

export class NumberField extends DataField {
  constructor(options: FieldOptions = {}) {
    super({ required: false, nullable: true, initial: null, ...options });
  }
  override _cast(v: unknown) {
    if (typeof v === "string" && v.trim() === "") return v.trim() === "" ? null : v;
    return typeof v === "number" ? v : Number(v);
  }
  override clean(value: unknown, options: { partial?: boolean } = {}): unknown {
    const v = typeof value === "string" && value.trim() === "" ? null : value;
    return super.clean(v, options);
  }
  /** v13 NumberField#_cleanType: integers are rounded and min/max clamp the value, silently. */
  override _cleanType(v: unknown) {
    if (typeof v !== "number" || Number.isNaN(v)) return v;
    let n = v;
    if (this.options.integer) n = Math.round(n);
    if (this.options.min !== undefined && n < this.options.min) n = this.options.min;
    if (this.options.max !== undefined && n > this.options.max) n = this.options.max;
    return n;
  }
  override _validateType(v: unknown) {
    if (typeof v !== "number" || Number.isNaN(v)) return "must be a number";
    if (this.options.integer && !Number.isInteger(v)) return "must be an integer";
    const c = this.choiceList();
    if (c && !c.map(Number).includes(v)) return `${v} is not a valid choice`;
    return undefined;
  }
}

export class StringField extends DataField {
  constructor(options: FieldOptions = {}) {
    super({
      required: false,
      nullable: false,
      blank: true,
      trim: true,
      initial: options.blank === false ? undefined : "",
      ...options,
    });
  }
  override _cast(v: unknown) {
    return typeof v === "string" ? v : String(v);
  }
  override _cleanType(v: unknown) {
    return typeof v === "string" && this.options.trim ? v.trim() : v;
  }
  override _validateType(v: unknown) {
    if (typeof v !== "string") return "must be a string";
    if (v === "" && this.options.blank === false) return "may not be a blank string";
    const c = this.choiceList();
    if (c && !(v === "" && this.options.blank) && !c.includes(v)) return `${JSON.stringify(v)} is not a valid choice`;
    return undefined;
  }
}
export class HTMLField extends StringField {}
export class FilePathField extends StringField {}

export class ObjectField extends DataField {
  constructor(options: FieldOptions = {}) {
    super({ required: true, nullable: false, initial: () => ({}), ...options });
  }
  override _cast(v: unknown) {
    return isRec(v) ? v : {};
  }
  override _validateType(v: unknown) {
    return isRec(v) ? undefined : "must be an object";
  }
  override initialize(v: unknown) {
    return deepClone(v);
  }
}

export class ArrayField extends DataField {
  constructor(
    readonly element: DataField,
    options: FieldOptions = {},
  ) {
    super({ required: true, nullable: false, initial: () => [], ...options });
  }
  override _cast(v: unknown) {
    if (v instanceof Set) return [...v];
    // v13 ArrayField#_cast: an object with numeric keys (a form's array) becomes an array.
    if (isRec(v)) return Object.values(v);
    return Array.isArray(v) ? v : [v];
  }
  /** Elements are cleaned in place. */
  override _cleanType(v: unknown, options: { partial?: boolean }) {
    const arr = v as unknown[];
    for (let i = 0; i < arr.length; i++) arr[i] = this.element.clean(arr[i], { ...options, partial: false });
    return arr;
  }
  /** v13 ArrayField#_validateType: an array of `min`…`max` elements (options; 0 and Infinity by default). */
  override _validateType(v: unknown) {
    if (!Array.isArray(v)) return "must be an array";
    if (this.options.min !== undefined && v.length < this.options.min)
      return `cannot have fewer than ${this.options.min} elements`;
    if (this.options.max !== undefined && v.length > this.options.max)
      return `cannot have more than ${this.options.max} elements`;
    return undefined;
  }
  override _validateChildren(v: unknown, path: string, out: Record<string, string>) {
    (v as unknown[]).forEach((e, i) => this.element.validate(e, `${path}.${i}`, out));
  }
  override initialize(v: unknown) {
    return Array.isArray(v) ? v.map((e) => this.element.initialize(e)) : v;
  }
}

/**
 * v13 TypedObjectField (common/data/fields.mjs): an object whose every value is `element`; a key
 * that fails `validateKey` is dropped when cleaned, each value cleaned and validated as the element.
 */
export class TypedObjectField extends DataField {
  constructor(
    readonly element: DataField,
    options: FieldOptions = {},
  ) {
    super({ required: true, nullable: false, initial: () => ({}), ...options });
  }
  validateKey(k: string): boolean {
    const f = this.options.validateKey;
    return typeof f === "function" ? (f as (k: string) => boolean)(k) !== false : true;
  }
  override _cast(v: unknown) {
    return isRec(v) ? v : {};
  }
  override _cleanType(v: unknown, options: { partial?: boolean }) {
    const data = v as Rec;
    for (const k of Object.keys(data)) {
      if (!this.validateKey(k)) {
        delete data[k];
        continue;
      }
      data[k] = this.element.clean(data[k], { ...options, partial: false });
    }
    return data;
  }
  override _validateType(v: unknown) {
    return isRec(v) ? undefined : "must be an object";
  }
  override _validateChildren(v: unknown, path: string, out: Record<string, string>) {
    for (const [k, e] of Object.entries(v as Rec)) {
      if (!this.validateKey(k)) out[`${path}.${k}`] = "is not a valid key";
      else this.element.validate(e, `${path}.${k}`, out);
    }
  }
  override initialize(v: unknown) {
    return deepClone(v);
  }
}

export class SchemaField extends DataField {
  readonly fields: Record<string, DataField>;
  constructor(fields: Record<string, DataField>, options: FieldOptions = {}) {
    super({ required: true, nullable: false, ...options });
    this.fields = fields;
    for (const [k, f] of Object.entries(fields)) f.name = k;
  }
  override getInitialValue(): unknown {
    const out: Rec = {};
    for (const [k, f] of Object.entries(this.fields)) out[k] = f.clean(undefined);
    return out;
  }
  override _cast(v: unknown) {
    return isRec(v) ? v : {};
  }
  /**
   * v13 SchemaField#_cleanType: each field cleaned in place, and keys the schema does not define
   * are deleted from the very source object (so by `ready` they are gone; FOUNDRY-V13.md).
   */
  override _cleanType(v: unknown, options: { partial?: boolean }) {
    const data = v as Rec;
    for (const key of Object.keys(data)) if (!(key in this.fields)) delete data[key];
    for (const [k, f] of Object.entries(this.fields)) {
      if (options.partial && !(k in data)) continue;
      const c = f.clean(data[k], options);
      if (c === undefined) delete data[k];
      else data[k] = c;
    }
    return data;
  }
  override _validateType(v: unknown) {
    return isRec(v) ? undefined : "must be an object";
  }
  override _validateChildren(v: unknown, path: string, out: Record<string, string>) {
    const data = v as Rec;
    for (const [k, f] of Object.entries(this.fields)) f.validate(data[k], path ? `${path}.${k}` : k, out);
  }
  override initialize(v: unknown) {
    if (!isRec(v)) return v;
    const out: Rec = {};
    for (const [k, f] of Object.entries(this.fields)) out[k] = f.initialize(v[k]);
    return out;
  }
}

export const fields = {
  DataField,
  BooleanField,
  NumberField,
  StringField,
  HTMLField,
  FilePathField,
  ObjectField,
  TypedObjectField,
  ArrayField,
  SchemaField,
};

// ─── Data models ──────────────────────────────────────────────────────────────────────

const schemas = new WeakMap<object, SchemaField>();

export class DataModel {
  static defineSchema(): Record<string, DataField> {
    return {};
  }
  static get schema(): SchemaField {
    let s = schemas.get(this);
    if (!s) schemas.set(this, (s = new SchemaField(this.defineSchema())));
    return s;
  }
  /** v13: migrateData receives the source and must change it in place; the return value is ignored. */
  static migrateData(source: Rec): Rec {
    return source;
  }
  /** v13 DataModel.migrateDataSafe: migrateData inside a try (a throwing migration is logged). */
  static migrateDataSafe(source: Rec): Rec {
    try {
      this.migrateData(source);
    } catch (e) {
      console.warn("foundry-host | migrateData failed", e);
    }
    return source;
  }
  /** Cleans `source` in place (unknown keys deleted, missing keys initialised, numbers clamped). */
  static cleanData(source: Rec = {}, options: { partial?: boolean } = {}): Rec {
    return this.schema._cleanType(source, options) as Rec;
  }
  /** Field validation, then `validateJoint` (a throw is a failure of the whole model), as core. */
  static validateSource(source: Rec): Record<string, string> {
    const out: Record<string, string> = {};
    this.schema._validateChildren(source, "", out);
    if (!Object.keys(out).length) {
      try {
        this.validateJoint(source);
      } catch (e) {
        out[""] = String((e as Error)?.message ?? e);
      }
    }
    return out;
  }
  static validateJoint(_data: Rec): void {}

  _source: Rec;
  parent: unknown;
  constructor(source: Rec = {}, options: { parent?: unknown; strict?: boolean } = {}) {
    const cls = this.constructor as typeof DataModel;
    this.parent = options.parent ?? null;
    cls.migrateDataSafe(source);
    cls.cleanData(source);
    const failures = cls.validateSource(source);
    if (Object.keys(failures).length && options.strict !== false) throw new DataModelValidationError(failures);
    this._source = source;
    this._initialize();
  }
  _initialize(): void {
    const cls = this.constructor as typeof DataModel;
    for (const k of Object.keys(this)) if (k !== "_source" && k !== "parent") delete (this as Rec)[k];
    Object.assign(this, cls.schema.initialize(this._source));
  }
  get schema() {
    return (this.constructor as typeof DataModel).schema;
  }
  toObject(source = true): Rec {
    return deepClone(
      source ? this._source : (this.constructor as typeof DataModel).schema.initialize(this._source),
    ) as Rec;
  }
  reset(): void {
    this._initialize();
  }
}

export class TypeDataModel extends DataModel {
  static LOCALIZATION_PREFIXES: string[] = [];
  prepareBaseData(): void {}
  prepareDerivedData(): void {}
}
