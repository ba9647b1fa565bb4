import { testSecrets } from "./service.ts";

/**
 * Credentials as the first envelope version (`v1`, authenticated data: version and key id only)
 * stored them, encrypted under the test master key `test` before the context was bound. Stored
 * events are never rewritten, so such ciphertexts must stay readable.
 */
export const legacyCredentials = {
  masterKeys: testSecrets.SECRETS_MASTER_KEYS,
  plaintext: { username: "acme", password: "s3cret pass!" },
  ciphertext:
    "v1.test.2Zglw9rxjkUR1uDYPrUxtnQ41SvT8y1aWL0qI9hL29KDK2BYPXS0KzfaxMZ_DP1AMMFEbwgiwZvUQZ1b." +
    "zr0esMqEwWn455-PbKXahaXH-wo8zaNcMdLgFUo6bHHsFj3F60UuQgvOHiEmrOhXBVD9hTix_LHIaHabtoNve6Ss4ie1rsTMSu8",
};
