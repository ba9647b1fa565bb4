/** Key lists as the configuration gives them: `id:base64[,id:base64...]`, the last one active. */

/** The entries of a key list, trimmed, empty ones dropped. */
export const keyListEntries = (spec: string): string[] =>
  spec
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");

/** Whether `encoded` is base64 (standard or URL-safe): Node's decoder skips characters it does not know instead of failing. */
export const isBase64 = (encoded: string): boolean => /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded);

/** The id a rotation gives its new key: one past the largest numeric id of `ids`. */
export const nextKeyId = (ids: Iterable<string>): string => String(Math.max(0, ...[...ids].map(Number).filter(Number.isInteger)) + 1);
