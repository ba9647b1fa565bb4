export * from "./accounts.ts";
export * from "./books.ts";
export * from "./entries.ts";
export * from "./payment-postings.ts";
export * from "./settlement-postings.ts";
export * from "./balances.ts";
export * from "./payment-events.ts";
