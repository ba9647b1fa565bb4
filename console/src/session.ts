/**
 * The API key lives in this tab's session storage only: never in a URL, a cookie or local
 * storage, and it is gone when the tab closes.
 */
const KEY_ITEM = "ledger-console.api-key";

export const readKey = (): string | null => sessionStorage.getItem(KEY_ITEM);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_ITEM, key);
export const forgetKey = (): void => sessionStorage.removeItem(KEY_ITEM);
