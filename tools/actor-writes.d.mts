export declare const GUARDED_FIELDS: string[];
export declare const GUARDED_WRITE_RULES: { selector: string; message: string }[];
