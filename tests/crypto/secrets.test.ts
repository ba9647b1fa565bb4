import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createSecretBox,
  DecryptionError,
  generateMasterKey,
  MasterKeyError,
  parseMasterKeys,
  UnknownKeyError,
} from "../../src/crypto/secrets.ts";
import { legacyCredentials } from "../support/legacy-ciphertext.ts";

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const credentials = { username: "acme", password: "s3cret-p4ssword" };
const context = "host-configuration/0190a8e2-7c3b-7def-8a12-3456789abcde/credentials";

/** Flips one bit of byte `byte` (negative: from the end) of part `index` (2: wrapped key, 3: payload). */
function tamper(ciphertext: string, index: number, byte: number): string {
  const parts = ciphertext.split(".");
  const bytes = Buffer.from(parts[index] ?? "", "base64url");
  const at = byte < 0 ? bytes.length + byte : byte;
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  parts[index] = bytes.toString("base64url");
  return parts.join(".");
}

describe("the secret box", () => {
  const box = createSecretBox({ activeKeyId: "k1", keys: { k1 } });

  it("round-trips objects and strings", () => {
    expect(box.decryptJson(box.encrypt(credentials, context), context)).toEqual(credentials);
    expect(JSON.parse(box.decrypt(box.encrypt(credentials, context), context))).toEqual(credentials);
    expect(box.decrypt(box.encrypt("sk_live_0123 ünïcode", context), context)).toBe("sk_live_0123 ünïcode");
    expect(box.decrypt(box.encrypt("", context), context)).toBe("");
  });

  it("refuses to read an encrypted string as an object", () => {
    expect(() => box.decryptJson(box.encrypt("{}", context), context)).toThrow(DecryptionError);
  });

  it("writes a compact versioned string naming the key", () => {
    expect(box.encrypt(credentials, context)).toMatch(/^v2\.k1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("never encrypts the same plaintext the same way twice", () => {
    expect(box.encrypt(credentials, context)).not.toBe(box.encrypt(credentials, context));
  });

  it("does not show the plaintext in the ciphertext", () => {
    const ciphertext = box.encrypt(credentials, context);
    for (const secret of ["s3cret-p4ssword", "acme", Buffer.from("s3cret-p4ssword").toString("base64url").slice(0, 12)]) {
      expect(ciphertext).not.toContain(secret);
    }
  });

  it("rotates: old ciphertexts still decrypt, new ones use the new key", () => {
    const old = box.encrypt(credentials, context);
    const rotated = createSecretBox({ activeKeyId: "k2", keys: { k1, k2 } });
    expect(rotated.decryptJson(old, context)).toEqual(credentials);
    const fresh = rotated.encrypt(credentials, context);
    expect(fresh.split(".")[1]).toBe("k2");
    expect(rotated.decryptJson(fresh, context)).toEqual(credentials);
    expect(() => box.decrypt(fresh, context)).toThrow(UnknownKeyError);
  });

  it("names an unknown key id", () => {
    const other = createSecretBox({ activeKeyId: "k9", keys: { k9: k2 } }).encrypt(credentials, context);
    const error = (() => {
      try {
        box.decrypt(other, context);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnknownKeyError);
    expect(error).toMatchObject({ keyId: "k9", message: expect.stringContaining("k9") });
  });

  it("detects tampering anywhere", () => {
    const ciphertext = box.encrypt(credentials, context);
    for (const forged of [
      tamper(ciphertext, 2, 0), // wrap IV
      tamper(ciphertext, 2, 20), // wrapped data key
      tamper(ciphertext, 2, -1), // wrap tag
      tamper(ciphertext, 3, 0), // payload IV
      tamper(ciphertext, 3, 12), // payload kind
      tamper(ciphertext, 3, 20), // payload
      tamper(ciphertext, 3, -1), // payload tag
    ]) {
      expect(() => box.decrypt(forged, context)).toThrow(DecryptionError);
    }
  });

  it("detects a key id swapped for another known key", () => {
    const both = createSecretBox({ activeKeyId: "k1", keys: { k1, k2: k1 } });
    const swapped = both.encrypt(credentials, context).replace(/^v2\.k1\./, "v2.k2.");
    expect(() => both.decrypt(swapped, context)).toThrow(DecryptionError);
  });

  it("detects parts mixed from two ciphertexts", () => {
    const [a, b] = [box.encrypt(credentials, context), box.encrypt(credentials, context)].map((c) => c.split("."));
    expect(() => box.decrypt([...(a ?? []).slice(0, 3), (b ?? [])[3]].join("."), context)).toThrow(DecryptionError);
  });

  it("binds the context: a ciphertext moved to another owner or field does not decrypt", () => {
    const ciphertext = box.encrypt(credentials, context);
    for (const elsewhere of [
      "host-configuration/0190a8e2-7c3b-7def-8a12-3456789abcdf/credentials",
      "host-configuration/0190a8e2-7c3b-7def-8a12-3456789abcde/password",
      "",
    ]) {
      expect(() => box.decryptJson(ciphertext, elsewhere)).toThrow(DecryptionError);
    }
  });

  it("still reads v1 ciphertexts, written before the context was bound, and only as v1", () => {
    const legacy = createSecretBox(parseMasterKeys(legacyCredentials.masterKeys));
    expect(legacy.decryptJson(legacyCredentials.ciphertext, context)).toEqual(legacyCredentials.plaintext);
    // Relabelled v2, a v1 ciphertext does not authenticate; nor does a v2 one relabelled v1.
    expect(() => legacy.decrypt(legacyCredentials.ciphertext.replace(/^v1\./, "v2."), context)).toThrow(DecryptionError);
    const current = legacy.encrypt(credentials, context);
    expect(() => legacy.decrypt(current.replace(/^v2\./, "v1."), context)).toThrow(DecryptionError);
  });

  it("rejects malformed ciphertexts", () => {
    const malformed = ["", "plain", "v3.k1.AAAA.AAAA", "v2.k1.AAAA.AAAA", "v1.k1.AAAA", "v1.k1.AAAA.AAAA", "v1.k1.!!!.@@@", "v1.k1.A.A.A"];
    for (const ciphertext of malformed) expect(() => box.decrypt(ciphertext, context)).toThrow(DecryptionError);
  });

  it("refuses a bad key configuration", () => {
    expect(() => createSecretBox({ activeKeyId: "k2", keys: { k1 } })).toThrow(MasterKeyError);
    expect(() => createSecretBox({ activeKeyId: "k1", keys: { k1: randomBytes(16) } })).toThrow(/32 bytes/);
    expect(() => createSecretBox({ activeKeyId: "k.1", keys: { "k.1": k1 } })).toThrow(MasterKeyError);
  });
});

describe("master keys", () => {
  it("generates 32 random bytes in base64", () => {
    const key = generateMasterKey();
    expect(Buffer.from(key, "base64")).toHaveLength(32);
    expect(generateMasterKey()).not.toBe(key);
  });

  it("parses id:base64 pairs; the last one is active", () => {
    const spec = `k1:${k1.toString("base64")}, k2:${k2.toString("base64url")}`;
    const parsed = parseMasterKeys(spec);
    expect(parsed.activeKeyId).toBe("k2");
    expect(parsed.keys.k1?.equals(k1)).toBe(true);
    expect(parsed.keys.k2?.equals(k2)).toBe(true);
    const box = createSecretBox(parsed);
    expect(box.decryptJson(box.encrypt(credentials, context), context)).toEqual(credentials);
  });

  it.each([
    ["", /No master keys/],
    [" , ", /No master keys/],
    [`${generateMasterKey()}`, /must be id:base64key/],
    [`k1:${generateMasterKey()},k1:${generateMasterKey()}`, /appears twice/],
    [`k 1:${generateMasterKey()}`, /Master key id/],
    [`:${generateMasterKey()}`, /Master key id/],
    ["k1:not base64!", /not base64/],
    ["k1:", /not base64/],
    [`k1:${randomBytes(16).toString("base64")}`, /32 bytes, not 16/],
  ])("rejects %j", (spec, message) => {
    expect(() => parseMasterKeys(spec)).toThrow(MasterKeyError);
    expect(() => parseMasterKeys(spec)).toThrow(message);
  });

  it("never puts key material in its errors", () => {
    const secret = randomBytes(31).toString("base64");
    let message = "";
    try {
      parseMasterKeys(`k1:${secret}`);
    } catch (error) {
      message = error instanceof MasterKeyError ? error.message : "";
    }
    expect(message).toMatch(/32 bytes/);
    expect(message).not.toContain(secret);
  });
});
