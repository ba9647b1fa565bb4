// Copied from the service's src/domain/journal/index.ts by `npm run client:generate`: do not edit.

export * from "./accounts.js";
export * from "./books.js";
export * from "./entries.js";
export * from "./payment-postings.js";
export * from "./settlement-postings.js";
export * from "./balances.js";
export * from "./payment-events.js";
