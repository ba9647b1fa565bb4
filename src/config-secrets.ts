import { readFileSync } from "node:fs";

/** The variables that hold secrets: each may instead be read from the file named by `<NAME>_FILE`. */
export const secretVariables = [
  "ADMIN_API_KEY",
  "SECRETS_MASTER_KEYS",
  "CARD_FINGERPRINT_KEY",
  "METRICS_TOKEN",
  "DATABASE_URL",
  "EVENTSTORE_URL",
] as const;

type Environment = Record<string, string | undefined>;

const isSecret = (name: string) => (secretVariables as readonly string[]).includes(name);
const given = (value: string | undefined) => value !== undefined && value.trim() !== "";

/**
 * The environment with every `<NAME>_FILE` replaced by `<NAME>`, its file's content (one trailing
 * line break dropped, as `echo` and editors leave it), and where each came from for messages.
 * Both forms given, or a file that cannot be read or is empty, is a configuration error.
 */
export function readSecretFiles(environment: Environment): { environment: Environment; files: Map<string, string> } {
  const resolved: Environment = { ...environment };
  const files = new Map<string, string>();
  for (const name of secretVariables) {
    const file = environment[`${name}_FILE`];
    if (!given(file)) continue;
    if (given(environment[name])) {
      throw new Error(`Invalid configuration: set ${name} or ${name}_FILE, not both`);
    }
    const filePath = file!.trim();
    let content: string;
    try {
      content = readFileSync(filePath, "utf8").replace(/\r?\n$/, "");
    } catch (error) {
      throw new Error(
        `Invalid configuration: ${name}_FILE: ${JSON.stringify(filePath)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); it must name a readable file holding ${name}`,
        { cause: error },
      );
    }
    if (content.trim() === "") {
      throw new Error(`Invalid configuration: ${name}_FILE: ${JSON.stringify(filePath)} is empty; it must hold ${name}`);
    }
    resolved[name] = content;
    files.set(name, filePath);
  }
  return { environment: resolved, files };
}

/**
 * How a configuration error shows the value a variable had, after its name: `="as it was"`, or for
 * a secret only its length (and the file it came from), never a character of it.
 */
export function describeGivenValue(name: string, value: string | undefined, files: ReadonlyMap<string, string>): string {
  if (value === undefined) return "";
  if (!isSecret(name)) return `=${JSON.stringify(value)}`;
  const file = files.get(name);
  return ` (${file === undefined ? "" : `from ${name}_FILE=${JSON.stringify(file)}: `}${value.length} characters, masked)`;
}
