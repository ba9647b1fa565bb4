import type { Processor } from "../../src/domain/host-configurations/schemas.ts";

/** A valid host configuration body per processor, with secrets the tests look for. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Body = { [key: string]: Json };

const common: Body = {
  clientId: "0190a8e2-7c3b-7def-8a12-3456789abcde",
  name: "Main street store",
  enabled: true,
  company: {
    name: "Acme Corp",
    phone: "555-1234567",
    address: { line1: "1 Main St", line2: null, city: "Springfield", state: "IL", postalCode: "62701", country: "US" },
    location: { latitude: 39.78, longitude: -89.65 },
  },
  customProperties: { region: "north" },
};
const commonSettings = { settlementTime: "23:30", timeZone: "America/Chicago" };

export const validBodies: Record<Processor, Body> = {
  processor_a: {
    ...common,
    merchant: { merchantNumber: "000123456789", acquirerBin: "012345", amexSeNumber: "0123456789" },
    settings: {
      ...commonSettings,
      agentBank: "000001",
      agentChain: "000002",
      storeNumber: "0001",
      terminalNumber: "0002",
      terminalId: "00000001",
      mcc: "5411",
      mvv: "0A1B2C3D4E",
      industryCode: "R",
    },
  },
  processor_b: {
    ...common,
    merchant: { merchantId: "0000MERCH01", groupId: "00G01", tppId: "RSO001", amexSeNumber: "012345678901234" },
    settings: { ...commonSettings, terminalId: "00000001", mcc: "5812", mvv: "0123456789" },
    credentials: { datawireId: "00012345678901234567" },
  },
  processor_c: {
    ...common,
    merchant: { platformBin: "000001", merchantId: "012345", amexSeNumber: "0123456789" },
    settings: { ...commonSettings, terminalId: "001", clientNumber: "0001", storeNumber: "0002" },
    credentials: { username: "acme", password: "s3cret pass!" },
  },
  processor_d: {
    ...common,
    merchant: {
      acquirerBin: "000123",
      merchantId: "0MERCHANT00001",
      acquiringInstitutionId: "00000012345",
      amexSeNumber: "0123456789",
    },
    settings: { ...commonSettings, terminalId: "0TERM001", terminalNumber: "0001", mcc: "5999", mvv: "00FFAA11BB" },
    credentials: { secretApiKey: "sk_live_0123" },
  },
};

/** A deep copy of `body` with `path` set to `value`, or removed when `value` is `undefined`. */
export function withField(body: Body, path: string, value: Json | undefined): Body {
  const copy = structuredClone(body);
  const keys = path.split(".");
  const last = keys.pop() ?? "";
  let node: Body = copy;
  for (const key of keys) node = node[key] as Body;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

