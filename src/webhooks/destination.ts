import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, request } from "undici";
import { DnsTimeoutError, type ResolveHost } from "./host-resolver.ts";

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** How an endpoint's host name is resolved, at creation and at delivery: bounded by WEBHOOK_DNS_TIMEOUT_MS. */
  resolveHost: ResolveHost;
}

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

export type SendResult =
  | { kind: "answered"; status: number; durationMs: number }
  | { kind: "failed"; error: string; durationMs: number };

export interface WebhookSender {
  /** POSTs `body` (already JSON text) with content-type application/json and the given headers. */
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  close(): Promise<void>;
}

/** How much of a response body is read (and thrown away) before the connection is dropped. */
const RESPONSE_BODY_LIMIT = 4096;

/** Undici's own timeouts, set to the same bound as the attempt's; whichever fires, it is a timeout. */
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

// A refusal names the variable that would lift it.
const HTTPS_ONLY = "must use https (WEBHOOK_ALLOW_HTTP=true allows http)";
const LIFTED_BY_ALLOW_PRIVATE = "(WEBHOOK_ALLOW_PRIVATE=true allows private, loopback and link-local addresses)";
const IS_PRIVATE = `is a private address ${LIFTED_BY_ALLOW_PRIVATE}`;
const RESOLVES_TO_PRIVATE = `resolves to a private address ${LIFTED_BY_ALLOW_PRIVATE}`;

/** The only IPv6 space allocated for global unicast (RFC 4291). */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Public means ipaddr.js calls it "unicast" (an IPv4-mapped IPv6 address is judged as its IPv4
 * address), and an IPv6 address must also lie in 2000::/3: outside it, ipaddr.js calls
 * "unicast" what is no public address, such as the IPv4-compatible `::7f00:1` (`[::127.0.0.1]`)
 * and site-local `fec0::/10`. Inside it, the ranges that embed an IPv4 address (NAT64
 * 64:ff9b::/96 lies outside anyway, 6to4 2002::/16, Teredo 2001::/32) are never "unicast", so
 * they are refused whatever address they embed.
 */
function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  return parsed instanceof ipaddr.IPv4 || parsed.match(GLOBAL_UNICAST);
}

type StaticVerdict = { ok: false; reason: string } | { ok: true; nameToResolve?: string };

/** Everything that can be judged without DNS; a host name that still has to be resolved is returned. */
function checkWithoutDns(url: string, policy: UrlPolicy): StaticVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  const schemeAllowed = parsed.protocol === "https:" || (policy.allowHttp && parsed.protocol === "http:");
  if (!schemeAllowed) return { ok: false, reason: policy.allowHttp ? "must use http or https" : HTTPS_ONLY };
  if (parsed.username !== "" || parsed.password !== "") {
    return { ok: false, reason: "must not contain a username or password" };
  }
  if (policy.allowPrivate) return { ok: true };
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(host) === 0) return { ok: true, nameToResolve: host };
  return isPublicAddress(host) ? { ok: true } : { ok: false, reason: IS_PRIVATE };
}

/**
 * At endpoint creation/update: parses the URL; refuses a scheme other than https (http only when
 * allowHttp), a URL with username/password, and (unless allowPrivate) a host that is an IP literal
 * in a non-public range or a name that resolves to any non-public address. A name that does not
 * resolve in time, or at all, is accepted (it is checked again at delivery).
 * `reason` is a short human sentence naming the variable that would lift it, if any.
 */
export async function checkWebhookUrl(url: string, policy: UrlPolicy): Promise<UrlVerdict> {
  const verdict = checkWithoutDns(url, policy);
  if (!verdict.ok) return verdict;
  if (verdict.nameToResolve === undefined) return { ok: true };
  let addresses;
  try {
    addresses = await policy.resolveHost(verdict.nameToResolve);
  } catch {
    return { ok: true };
  }
  return addresses.every((entry) => isPublicAddress(entry.address)) ? { ok: true } : { ok: false, reason: RESOLVES_TO_PRIVATE };
}

class PrivateAddressError extends Error {
  readonly code = "ERR_WEBHOOK_PRIVATE_ADDRESS";
  constructor() {
    super(RESOLVES_TO_PRIVATE);
  }
}

/**
 * The agent's resolver: the addresses it hands to the socket are the ones checked here, so a name
 * cannot pass a check and then connect somewhere else (DNS rebinding).
 */
function connectLookup({ resolveHost, allowPrivate }: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname).then(
      (resolved) => {
        if (!allowPrivate && !resolved.every((entry) => isPublicAddress(entry.address))) return callback(new PrivateAddressError(), "");
        const addresses = options.family === 4 || options.family === 6 ? resolved.filter((entry) => entry.family === options.family) : resolved;
        if (options.all) return callback(null, addresses);
        const [first] = addresses;
        if (first === undefined) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "");
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof PrivateAddressError) return `refused: ${error.message}`;
  if (error instanceof DnsTimeoutError) return error.message;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}

export function createWebhookSender(options: UrlPolicy & { timeoutMs: number }): WebhookSender {
  const { timeoutMs } = options;
  const agent = new Agent({
    connect: { timeout: timeoutMs, lookup: connectLookup(options) },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // IP literals never reach the agent's lookup, so they (and the URL's shape) are checked here.
    const verdict = checkWithoutDns(url, options);
    if (!verdict.ok) return { kind: "failed", error: `refused: ${verdict.reason}`, durationMs: elapsed() };

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher: agent,
        signal: controller.signal,
        headers: { ...headers, "content-type": "application/json" },
        body,
      });
      await response.body.dump({ limit: RESPONSE_BODY_LIMIT, signal: controller.signal });
      return { kind: "answered", status: response.statusCode, durationMs: elapsed() };
    } catch (error) {
      const description = describeFailure(error);
      const timedOut = controller.signal.aborted || TIMEOUT_CODES.has(description);
      return { kind: "failed", error: timedOut ? `timeout after ${timeoutMs} ms` : description, durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
    }
  }

  return { send, close: () => agent.close() };
}
