import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";
// `.js`, not `.ts`: the declarations the build writes keep the specifier as written, and a project
// using the package resolves `./schema.js` to `schema.d.ts` whatever its compiler settings.
import type { components, paths } from "./schema.js";

export type { components, operations, paths } from "./schema.js";

export type LedgerClient = Client<paths>;

/** Every error answer of the API (RFC 9457); branch on `code`. */
export type Problem = components["schemas"]["Problem"];
/** What a problem's `code` may be: `card_declined`, `idempotency_key_reused`, `validation_error`, … */
export type ProblemCode = Problem["code"];
export type Transaction = components["schemas"]["Transaction"];

export interface LedgerClientOptions {
  /** Where the service answers, without `/v1`: `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An admin key or a client key, sent as `Authorization: Bearer <key>` on every call. */
  apiKey: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * A client of the payment ledger whose paths, parameters, bodies and answers, errors included,
 * are typed from the service's OpenAPI document:
 *
 *     const ledger = createLedgerClient({ baseUrl, apiKey });
 *     const { data, error } = await ledger.POST("/v1/transactions/sale", { body, params: { header: { "Idempotency-Key": "order-1001" } } });
 */
export function createLedgerClient({ baseUrl, apiKey, fetch }: LedgerClientOptions): LedgerClient {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` }, ...(fetch ? { fetch } : {}) });
}

export { chainHash, type ChainedContent } from "./chain-hash.js";
export {
  type ChainHead,
  checkpointDigest,
  type CheckpointProblem,
  type CheckpointProblemCode,
  type CheckpointRecord,
  type CheckpointVerification,
  merkleRoot,
  parseCheckpointKeys,
  type TrustedCheckpoint,
  verifyCheckpoints,
  type VerifyCheckpointsOptions,
} from "./checkpoint-proof.js";
export {
  createExportVerifier,
  type ExportProblem,
  type ExportProblemCode,
  type ExportVerification,
  type StreamProof,
  verifyExport,
  type VerifyExportOptions,
} from "./verify-export.js";
export {
  compareTrialBalances,
  createJournalRecomputer,
  parseServedTrialBalance,
  type ServedTrialBalance,
  type TrialBalanceDifference,
} from "./export-journal.js";
export type { JournalAccount, JournalEntry, JournalLine, TrialBalance } from "./domain/journal/index.js";
