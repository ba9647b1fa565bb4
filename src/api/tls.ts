import { readFileSync, type Stats, unwatchFile, watchFile } from "node:fs";
import { isIP } from "node:net";
import type { Server } from "node:https";
import { createSecureContext } from "node:tls";
import type { Logger } from "../logger.ts";

/** The PEM files the API serves HTTPS with (`TLS_CERT_FILE`, `TLS_KEY_FILE`). */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
  /** How often the files are looked at for a renewal. */
  reloadCheckMs: number;
}

/**
 * TLS 1.2 with forward secrecy and AEAD only (AES-GCM, ChaCha20-Poly1305); the TLS 1.3 suites
 * (all AEAD) are named too, so that nothing else can be negotiated. No CBC, no RSA key exchange.
 */
export const TLS_CIPHERS = [
  "TLS_AES_256_GCM_SHA384",
  "TLS_CHACHA20_POLY1305_SHA256",
  "TLS_AES_128_GCM_SHA256",
  "ECDHE-ECDSA-AES256-GCM-SHA384",
  "ECDHE-RSA-AES256-GCM-SHA384",
  "ECDHE-ECDSA-CHACHA20-POLY1305",
  "ECDHE-RSA-CHACHA20-POLY1305",
  "ECDHE-ECDSA-AES128-GCM-SHA256",
  "ECDHE-RSA-AES128-GCM-SHA256",
].join(":");

export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

const protocolOptions = { minVersion: "TLSv1.2", maxVersion: "TLSv1.3", ciphers: TLS_CIPHERS, honorCipherOrder: true } as const;

/** Reads the pair and checks that they make a context (a certificate and its own key, in PEM). */
export function readTlsPair(files: Pick<TlsFiles, "certFile" | "keyFile">): { cert: Buffer; key: Buffer } {
  const cert = readFileSync(files.certFile);
  const key = readFileSync(files.keyFile);
  createSecureContext({ ...protocolOptions, cert, key });
  return { cert, key };
}

/** The options of the HTTPS server (Fastify's `https`). */
export function httpsOptions(files: TlsFiles): { cert: Buffer; key: Buffer } & typeof protocolOptions {
  return { ...protocolOptions, ...readTlsPair(files) };
}

/**
 * Adds `strict-transport-security` to every answer of the HTTPS server (its 404s and framework
 * errors included), and swaps in a renewed certificate for the next handshake when either file
 * changes; a pair that does not load (half renewed, mismatched) is logged and the old one kept.
 * Returns what stops watching.
 */
export function serveTls(server: Server, files: TlsFiles, logger: Logger): () => void {
  // Ahead of Fastify's own listener: a header set on the response is merged into its writeHead.
  server.prependListener("request", (_request, response) => {
    response.setHeader("strict-transport-security", STRICT_TRANSPORT_SECURITY);
  });
  const reload = () => {
    try {
      server.setSecureContext({ ...protocolOptions, ...readTlsPair(files) });
      logger.info({ certFile: files.certFile, keyFile: files.keyFile }, "TLS certificate reloaded");
    } catch (error) {
      logger.warn(
        { certFile: files.certFile, keyFile: files.keyFile, err: error },
        "TLS certificate files changed but do not load: the previous certificate stays in use",
      );
    }
  };
  const changed = (current: Stats, previous: Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) reload();
  };
  for (const file of [files.certFile, files.keyFile]) watchFile(file, { interval: files.reloadCheckMs, persistent: false }, changed);
  return () => {
    for (const file of [files.certFile, files.keyFile]) unwatchFile(file, changed);
  };
}

/** 127.0.0.0/8, ::1 and localhost: an address that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  return /^::ffff:127\./.test(bare);
}
