import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A throwaway certificate authority in a directory of its own, made with `openssl`. */
export interface TestCa {
  dir: string;
  caFile: string;
  /**
   * Issues a server certificate for 127.0.0.1 and localhost (RSA, so that its refusal of a CBC
   * suite is the cipher's, never the key type's) into `<name>.crt` and `<name>.key`.
   */
  issue(name: string): Promise<{ certFile: string; keyFile: string }>;
}

const openssl = (args: string[], cwd: string) => execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });

export async function createTestCa(): Promise<TestCa> {
  const dir = await mkdtemp(path.join(tmpdir(), "ledger-test-ca-"));
  openssl(
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=ledger test CA"],
    dir,
  );
  await writeFile(path.join(dir, "server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
  return {
    dir,
    caFile: path.join(dir, "ca.crt"),
    async issue(name) {
      openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", "/CN=localhost"], dir);
      openssl(
        ["x509", "-req", "-in", `${name}.csr`, "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", `${name}.crt`, "-days", "2", "-extfile", "server.ext"],
        dir,
      );
      return { certFile: path.join(dir, `${name}.crt`), keyFile: path.join(dir, `${name}.key`) };
    },
  };
}

/** The text of a file, for a test that copies a certificate over another. */
export const textOf = (file: string) => readFile(file, "utf8");
