import type { LookupAddress } from "node:dns";
import { Resolver } from "node:dns/promises";

/** Finds a host name's addresses; `signal` aborts when the answer is no longer awaited. */
export type HostLookup = (hostname: string, signal: AbortSignal) => Promise<LookupAddress[]>;

/** A host name's addresses, or an error within the resolver's bound. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export class DnsTimeoutError extends Error {
  readonly code = "ETIMEOUT";
  constructor(hostname: string, timeoutMs: number) {
    super(`no DNS answer for ${hostname} within ${timeoutMs} ms`);
  }
}

const LOOPBACK: LookupAddress[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/**
 * Asks the DNS servers of /etc/resolv.conf (or `servers`) for A and AAAA records through c-ares,
 * on the event loop: unlike dns.lookup (getaddrinfo), a query that never answers holds none of
 * libuv's four threads, which processor connections, file and crypto work need, and it can be
 * cancelled. Names are not looked up in /etc/hosts; `localhost` and its subdomains are loopback
 * (RFC 6761), as getaddrinfo would say.
 */
export function dnsQueries({ servers }: { servers?: string[] } = {}): HostLookup {
  return async (hostname, signal) => {
    const name = hostname.toLowerCase().replace(/\.$/, "");
    if (name === "localhost" || name.endsWith(".localhost")) return LOOPBACK;
    // A resolver of its own, so that cancelling it ends this lookup's queries only.
    const resolver = new Resolver({ tries: 1 });
    if (servers) resolver.setServers(servers);
    const cancel = () => resolver.cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
      const addresses: LookupAddress[] = [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (addresses.length > 0) return addresses;
      throw v4.status === "rejected" ? v4.reason : Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  };
}

/** Every lookup answered or failed within `timeoutMs` (WEBHOOK_DNS_TIMEOUT_MS); a late one is cancelled. */
export function createHostResolver({ timeoutMs, lookup = dnsQueries() }: { timeoutMs: number; lookup?: HostLookup }): ResolveHost {
  return async (hostname) => {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new DnsTimeoutError(hostname, timeoutMs));
      }, timeoutMs);
    });
    try {
      return await Promise.race([lookup(hostname, controller.signal), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  };
}
