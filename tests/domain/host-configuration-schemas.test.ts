import { describe, expect, it } from "vitest";
import {
  hostConfigurationCreateSchema,
  hostConfigurationUpdateSchema,
  type Processor,
  processors,
} from "../../src/domain/host-configurations/schemas.ts";
import { type Json, validBodies, withField } from "../support/host-configurations.ts";

function issuePaths(processor: Processor, body: unknown): string[] {
  const result = hostConfigurationCreateSchema(processor).safeParse(body);
  if (result.success) return [];
  return [...new Set(result.error.issues.map((issue) => issue.path.join(".")))];
}

const bad = (path: string, ...values: Json[]) => values.map((value) => ({ path, value }));

const commonInvalid = [
  ...bad("clientId", "not-a-uuid", 123, ""),
  ...bad("name", "", "x".repeat(201), "bad\u0007name", "   ", null),
  ...bad("enabled", "true", 1),
  ...bad("company", "Acme"),
  ...bad("company.name", "", "x".repeat(201), "Acme\nCorp"),
  ...bad("company.phone", "call me", "12", "555\u00001234"),
  ...bad("company.address.line1", "", 1),
  ...bad("company.address.line2", 5, "a\nb", ""),
  ...bad("company.address.city", ""),
  ...bad("company.address.state", ""),
  ...bad("company.address.postalCode", "", "62701\u0000", "1234567890ABCDEFG"),
  ...bad("company.address.country", "us", "USA", "XX", "EU", "UK"),
  ...bad("company.location.latitude", 90.1, -91, "39.78"),
  ...bad("company.location.longitude", 180.5, -181, null),
  ...bad("settings.settlementTime", "24:00", "7:30", "23:60", "2330", "23:30:00"),
  ...bad("settings.timeZone", "Mars/Olympus", "+01:00", "america/chicago", "", "America/Chicago "),
  ...bad("customProperties", "region=north", []),
  ...bad("customProperties.region", 5, "x".repeat(501), null),
];

const processorInvalid: Record<Processor, { path: string; value: Json }[]> = {
  processor_a: [
    ...bad("merchant.merchantNumber", "12345678901", "1234567890123", 123456789012, "12345678901a"),
    ...bad("merchant.acquirerBin", "12345", "1234567"),
    ...bad("merchant.amexSeNumber", "123456789", "12345678901", ""),
    ...bad("settings.agentBank", "12345"),
    ...bad("settings.agentChain", "1234567"),
    ...bad("settings.storeNumber", "123"),
    ...bad("settings.terminalNumber", "12345"),
    ...bad("settings.terminalId", "1234567"),
    ...bad("settings.mcc", "541", 5411),
    ...bad("settings.mvv", "0a1b2c3d4e", "0A1B2C3D4G", "0A1B2C3D4"),
    ...bad("settings.industryCode", "X", "d", ""),
    ...bad("credentials", { username: "x" }, "none"),
  ],
  processor_b: [
    ...bad("merchant.merchantId", "", "A".repeat(17), "MERCH-01"),
    ...bad("merchant.groupId", "1234", "A".repeat(14)),
    ...bad("merchant.tppId", "12345", "1234567"),
    ...bad("merchant.amexSeNumber", "A".repeat(16), ""),
    ...bad("settings.terminalId", "", "123456789"),
    ...bad("settings.mcc", "12a4"),
    ...bad("settings.mvv", "", "12345678901", "12A"),
    ...bad("credentials", null),
    ...bad("credentials.datawireId", "1234", "0001234567890123456A", 1234567890123456, "0001234567890123456\n", "000123456789012345 7"),
  ],
  processor_c: [
    ...bad("merchant.platformBin", "000003", "1", 1),
    ...bad("merchant.merchantId", "12345", "1234567", "012345678901"),
    ...bad("merchant.amexSeNumber", "123"),
    ...bad("settings.terminalId", "01", "0001", "00A"),
    ...bad("settings.clientNumber", "123"),
    ...bad("settings.storeNumber", "12345"),
    ...bad("credentials.username", "", "jos\u00e9"),
    ...bad("credentials.password", "", "pass\u0000word", "p\u00e4ss"),
  ],
  processor_d: [
    ...bad("merchant.acquirerBin", "12345"),
    ...bad("merchant.merchantId", "A".repeat(16), ""),
    ...bad("merchant.acquiringInstitutionId", "", "123456789012", "12A"),
    ...bad("merchant.amexSeNumber", "12345678901"),
    ...bad("settings.terminalId", "1234567", "A".repeat(17)),
    ...bad("settings.terminalNumber", "123"),
    ...bad("settings.mcc", "12345"),
    ...bad("settings.mvv", "123"),
    ...bad("credentials.secretApiKey", "", "key\u0001", "kl\u00fcssel", " key", "key ", "key\r\nx-injected: 1", "key\n"),
  ],
};

const requiredFields: Record<Processor, string[]> = {
  processor_a: [
    "merchant.merchantNumber",
    "merchant.acquirerBin",
    "settings.agentBank",
    "settings.agentChain",
    "settings.storeNumber",
    "settings.terminalNumber",
    "settings.terminalId",
    "settings.mcc",
  ],
  processor_b: [
    "merchant.merchantId",
    "merchant.groupId",
    "merchant.tppId",
    "settings.terminalId",
    "settings.mcc",
    "credentials",
    "credentials.datawireId",
  ],
  processor_c: [
    "merchant.platformBin",
    "merchant.merchantId",
    "credentials",
    "credentials.username",
    "credentials.password",
  ],
  processor_d: [
    "merchant.acquirerBin",
    "merchant.merchantId",
    "settings.terminalId",
    "credentials",
    "credentials.secretApiKey",
  ],
};
const commonRequired = [
  "clientId",
  "name",
  "enabled",
  "merchant",
  "settings",
  "company",
  "company.name",
  "company.phone",
  "company.address",
  "company.address.line1",
  "company.address.city",
  "company.address.state",
  "company.address.postalCode",
  "company.address.country",
  "company.location",
  "company.location.latitude",
  "company.location.longitude",
  "settings.settlementTime",
  "settings.timeZone",
];

const unknownFieldPaths = ["", "merchant", "settings", "company", "company.address", "company.location"];

for (const processor of processors) {
  describe(`${processor} host configuration`, () => {
    const valid = validBodies[processor];

    it("accepts a valid body", () => {
      expect(issuePaths(processor, valid)).toEqual([]);
    });

    it.each([...commonInvalid, ...processorInvalid[processor]])("rejects $path = $value at that path", ({ path, value }) => {
      expect(issuePaths(processor, withField(valid, path, value))).toEqual([path]);
    });

    it.each([...commonRequired, ...requiredFields[processor]])("requires %s", (path) => {
      expect(issuePaths(processor, withField(valid, path, undefined))).toEqual([path]);
    });

    it.each(unknownFieldPaths)("rejects an unknown field in '%s'", (path) => {
      const body = path === "" ? { ...valid, extra: "x" } : withField(valid, `${path}.extra`, "x");
      expect(issuePaths(processor, body)).toEqual([path]);
    });

    it("keeps identifiers as strings, leading zeros included", () => {
      const parsed = hostConfigurationCreateSchema(processor).parse(valid);
      expect(parsed.merchant).toEqual(valid.merchant);
      expect(parsed.settings).toEqual(valid.settings);
    });

    it("accepts optional fields left out, and returns them as null", () => {
      const body = withField(withField(valid, "company.address.line2", undefined), "customProperties", undefined);
      const parsed = hostConfigurationCreateSchema(processor).parse(body);
      expect(parsed.company.address.line2).toBeNull();
      expect(parsed.customProperties).toEqual({});
    });

    it("accepts an update without credentials, which keeps the stored ones", () => {
      const parsed = hostConfigurationUpdateSchema(processor).parse(withField(valid, "credentials", undefined));
      expect(parsed.credentials).toBeUndefined();
    });
  });
}

describe("common fields", () => {
  const valid = validBodies.processor_b;
  const accepts = (path: string, value: Json) =>
    expect(issuePaths("processor_b", withField(valid, path, value))).toEqual([]);

  it("accepts settlement times from 00:00 to 23:59", () => {
    for (const time of ["00:00", "07:30", "12:00", "23:59"]) accepts("settings.settlementTime", time);
  });

  it("accepts IANA time zones, links included", () => {
    const zones = ["UTC", "Europe/Paris", "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "US/Central"];
    for (const zone of zones) accepts("settings.timeZone", zone);
  });

  it("accepts 50 custom properties, not 51", () => {
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, "v"]));
    accepts("customProperties", properties(50));
    expect(issuePaths("processor_b", withField(valid, "customProperties", properties(51)))).toEqual(["customProperties"]);
  });

  it("checks custom property keys", () => {
    accepts("customProperties", { a: "", region_2: "x".repeat(500), [`k${"x".repeat(63)}`]: "v" });
    for (const key of ["Region", "1region", "_region", "re-gion", "", `k${"x".repeat(64)}`]) {
      const body = withField(valid, "customProperties", { [key]: "v" });
      expect(issuePaths("processor_b", body)).toEqual([`customProperties.${key}`]);
    }
  });

  it("accepts free text in any language, and extreme coordinates", () => {
    accepts("company.name", "Café Zürich");
    accepts("company.location", { latitude: -90, longitude: 180 });
    accepts("company.address.line2", "Suite 100");
  });

  it("rejects identifiers that are not printable ASCII", () => {
    const nonAscii: [Processor, string, string][] = [
      ["processor_a", "merchant.merchantNumber", "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19\uff10\uff11"],
      ["processor_a", "merchant.merchantNumber", "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661"],
      ["processor_b", "merchant.merchantId", "MERCH\u00c901"],
      ["processor_b", "merchant.merchantId", "MERCH\t01"],
      ["processor_d", "settings.terminalId", "TERM\u00a00001"],
      ["processor_c", "credentials.password", "secret\u007f"],
    ];
    for (const [processor, path, value] of nonAscii) {
      expect(issuePaths(processor, withField(validBodies[processor], path, value))).toEqual([path]);
    }
  });
});

describe("processor_a", () => {
  it("accepts credentials left out or empty, since it has none", () => {
    const schema = hostConfigurationCreateSchema("processor_a");
    expect(schema.safeParse(validBodies.processor_a).success).toBe(true);
    expect(schema.safeParse({ ...validBodies.processor_a, credentials: {} }).success).toBe(true);
  });

  it("accepts every industry code, and none", () => {
    for (const code of ["D", "F", "G", "R", null]) {
      expect(issuePaths("processor_a", withField(validBodies.processor_a, "settings.industryCode", code))).toEqual([]);
    }
  });
});

describe("processor_c", () => {
  const valid = validBodies.processor_c;
  const merchant = (platformBin: string, merchantId: string) =>
    withField(withField(valid, "merchant.platformBin", platformBin), "merchant.merchantId", merchantId);

  it("needs a 6-digit merchantId on BIN 000001 and a 12-digit one on BIN 000002", () => {
    expect(issuePaths("processor_c", merchant("000001", "012345"))).toEqual([]);
    expect(issuePaths("processor_c", merchant("000002", "000000012345"))).toEqual([]);
    expect(issuePaths("processor_c", merchant("000001", "000000012345"))).toEqual(["merchant.merchantId"]);
    expect(issuePaths("processor_c", merchant("000002", "012345"))).toEqual(["merchant.merchantId"]);
  });

  it("says which length the BIN needs", () => {
    const result = hostConfigurationCreateSchema("processor_c").safeParse(merchant("000002", "012345"));
    expect(result.error?.issues[0]?.message).toMatch(/12 digits when platformBin is 000002/);
  });

  it("defaults terminalId to 001", () => {
    const parsed = hostConfigurationCreateSchema("processor_c").parse(withField(valid, "settings.terminalId", undefined));
    expect(parsed.settings.terminalId).toBe("001");
  });
});
