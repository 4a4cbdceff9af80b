/** The document the types come from (docs/openapi.json). */
export const DOCUMENT: string;
/** The committed types (src/api/schema.d.ts). */
export const SCHEMA: string;
/** The text of schema.d.ts for the document as it is on disk. */
export function generate(options?: { silent?: boolean }): Promise<string>;
