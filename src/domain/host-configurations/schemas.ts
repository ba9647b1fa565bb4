import { z } from "zod";
import { processors, type Processor } from "../processors.ts";

/** Request bodies of `POST` and `PUT /v1/host-configurations/{processor}`, one schema per processor. */

export { processors, type Processor };
export const processorSchema = z.enum(processors);

export const isProcessor = (value: string): value is Processor => (processors as readonly string[]).includes(value);

// --- building blocks -------------------------------------------------------------------------

const digits = (length: number) => z.string().regex(new RegExp(`^[0-9]{${length}}$`), `must be ${length} digits`);
const digitsBetween = (min: number, max: number) =>
  z.string().regex(new RegExp(`^[0-9]{${min},${max}}$`), `must be ${min} to ${max} digits`);
const alphanumeric = (min: number, max: number) =>
  z
    .string()
    .regex(
      new RegExp(`^[A-Za-z0-9]{${min},${max}}$`),
      min === max ? `must be ${min} letters or digits` : `must be ${min} to ${max} letters or digits`,
    );
const hex10 = z.string().regex(/^[0-9A-F]{10}$/, "must be 10 hexadecimal characters (0-9, A-F)");

/** Printable ASCII: space to tilde. */
const printableAscii = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[\x20-\x7E]*$/, "must be printable ASCII");

/**
 * A credential sent in an HTTP header: printable ASCII that the header carries unchanged (HTTP
 * trims a value's leading and trailing blanks, and refuses control characters).
 */
const headerValue = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/, "must be printable ASCII, not starting or ending with a space: it is sent in an HTTP header");

/** Free text may be any language, but never control characters nor only blanks. */
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}\p{Cs}]*$/u, "must not contain control characters or unpaired surrogates")
    .refine((value) => value.trim() !== "", "must not be blank");

/** An optional field: absent or null in, always present (null when absent) out. */
const optionalField = <T extends z.ZodType<string>>(schema: T) => schema.nullable().default(null);

// Officially assigned ISO 3166-1 alpha-2 codes. Intl also knows reserved and historic ones (EU, UK, SU...).
const countryCodes = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT " +
    "BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH " +
    "ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT " +
    "HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS " +
    "LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI " +
    "NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG " +
    "SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
    "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

const country = z.string().refine((value) => countryCodes.has(value), "must be an ISO 3166-1 alpha-2 country code");

const settlementTime = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "must be HH:MM, 24-hour");

const timeZone = z.string().superRefine((value, ctx) => {
  // Offsets such as "+01:00" are time zones to ECMA-402 on newer Node versions, but not IANA names.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) {
    ctx.addIssue({ code: "custom", message: "must be an IANA time zone name, such as America/Chicago" });
    return;
  }
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    ctx.addIssue({ code: "custom", message: "must be an IANA time zone name, such as America/Chicago" });
    return;
  }
  // Intl matches names case-insensitively; store them as IANA spells them.
  if (resolved !== value && resolved.toLowerCase() === value.toLowerCase()) {
    ctx.addIssue({ code: "custom", message: `must be spelled ${resolved}` });
  }
});

const company = z.strictObject({
  name: text(200),
  phone: z
    .string()
    .regex(/^\+?[0-9 ().-]{3,32}$/, "must be a phone number: digits, spaces, ( ) . - and an optional leading +")
    .refine((value) => (value.match(/[0-9]/g) ?? []).length >= 3, "must contain at least 3 digits"),
  address: z.strictObject({
    line1: text(200),
    line2: optionalField(text(200)),
    city: text(100),
    state: text(100),
    postalCode: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9 -]{0,15}$/, "must be 1 to 16 letters, digits, spaces or -"),
    country,
  }),
  location: z.strictObject({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
  }),
});

const customPropertiesLimit = 50;
const customProperties = z
  .record(
    z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "keys must match ^[a-z][a-z0-9_]{0,63}$"),
    z
      .string()
      .max(500)
      .regex(/^[^\p{Cc}\p{Cs}]*$/u, "must not contain control characters or unpaired surrogates"),
  )
  .refine((value) => Object.keys(value).length <= customPropertiesLimit, `at most ${customPropertiesLimit} properties`)
  .default({});

const common = {
  clientId: z.uuid(),
  name: text(200),
  enabled: z.boolean(),
  company,
  customProperties,
};

const commonSettings = { settlementTime, timeZone };

// --- per processor ---------------------------------------------------------------------------

const processorA = {
  merchant: z.strictObject({
    merchantNumber: digits(12),
    acquirerBin: digits(6),
    amexSeNumber: optionalField(digits(10)),
  }),
  settings: z.strictObject({
    ...commonSettings,
    agentBank: digits(6),
    agentChain: digits(6),
    storeNumber: digits(4),
    terminalNumber: digits(4),
    terminalId: digits(8),
    mcc: digits(4),
    mvv: optionalField(hex10),
    industryCode: z.enum(["D", "F", "G", "R"]).nullable().default(null),
  }),
  // processor_a has no secrets: absent or an empty object, so clients can send one body shape.
  credentials: z.strictObject({}),
};

const processorB = {
  merchant: z.strictObject({
    merchantId: alphanumeric(1, 16),
    groupId: alphanumeric(5, 13),
    tppId: alphanumeric(6, 6),
    amexSeNumber: optionalField(alphanumeric(1, 15)),
  }),
  settings: z.strictObject({
    ...commonSettings,
    terminalId: alphanumeric(1, 8),
    mcc: digits(4),
    mvv: optionalField(digitsBetween(1, 10)),
  }),
  // Digits only: it is sent in an HTTP header.
  credentials: z.strictObject({ datawireId: digits(20) }),
};

const processorCMerchant = (platformBin: "000001" | "000002", merchantIdLength: number) =>
  z.strictObject({
    platformBin: z.literal(platformBin),
    merchantId: z
      .string()
      .regex(
        new RegExp(`^[0-9]{${merchantIdLength}}$`),
        `must be ${merchantIdLength} digits when platformBin is ${platformBin}`,
      ),
    amexSeNumber: optionalField(digits(10)),
  });

const processorC = {
  merchant: z.discriminatedUnion(
    "platformBin",
    [processorCMerchant("000001", 6), processorCMerchant("000002", 12)],
    { error: "must be 000001 or 000002" },
  ),
  settings: z.strictObject({
    ...commonSettings,
    terminalId: digits(3).default("001"),
    clientNumber: optionalField(digits(4)),
    storeNumber: optionalField(digits(4)),
  }),
  credentials: z.strictObject({ username: printableAscii(1, 128), password: printableAscii(1, 256) }),
};

const processorD = {
  merchant: z.strictObject({
    acquirerBin: digits(6),
    merchantId: alphanumeric(1, 15),
    acquiringInstitutionId: optionalField(digitsBetween(1, 11)),
    amexSeNumber: optionalField(digits(10)),
  }),
  settings: z.strictObject({
    ...commonSettings,
    terminalId: alphanumeric(8, 16),
    terminalNumber: optionalField(digits(4)),
    mcc: optionalField(digits(4)),
    mvv: optionalField(hex10),
  }),
  credentials: z.strictObject({ secretApiKey: headerValue(1, 512) }),
};

const create = <M extends z.ZodType, S extends z.ZodType, C extends z.ZodType>(parts: {
  merchant: M;
  settings: S;
  credentials: C;
}) => z.strictObject({ ...common, merchant: parts.merchant, settings: parts.settings, credentials: parts.credentials });

/** PUT: `credentials` left out keeps the stored ones. */
const update = <M extends z.ZodType, S extends z.ZodType, C extends z.ZodType>(parts: {
  merchant: M;
  settings: S;
  credentials: C;
}) =>
  z.strictObject({
    ...common,
    merchant: parts.merchant,
    settings: parts.settings,
    credentials: parts.credentials.optional(),
  });

export const hostConfigurationSchemas = {
  // Nothing secret to require: processor_a accepts the update shape on create too.
  processor_a: { create: update(processorA), update: update(processorA), credentials: processorA.credentials },
  processor_b: { create: create(processorB), update: update(processorB), credentials: processorB.credentials },
  processor_c: { create: create(processorC), update: update(processorC), credentials: processorC.credentials },
  processor_d: { create: create(processorD), update: update(processorD), credentials: processorD.credentials },
} as const;

type Schemas = typeof hostConfigurationSchemas;

/** The body of `POST /v1/host-configurations/{processor}`. */
export const hostConfigurationCreateSchema = <P extends Processor>(processor: P): Schemas[P]["create"] =>
  hostConfigurationSchemas[processor].create;

/** The body of `PUT /v1/host-configurations/{processor}/{id}`: `credentials` optional. */
export const hostConfigurationUpdateSchema = <P extends Processor>(processor: P): Schemas[P]["update"] =>
  hostConfigurationSchemas[processor].update;

/** processor_a has nothing to keep secret. */
export const processorHasCredentials = (processor: Processor): boolean => processor !== "processor_a";

// --- types -----------------------------------------------------------------------------------

export type HostConfigurationCreateBody<P extends Processor = Processor> = P extends Processor
  ? z.output<Schemas[P]["create"]>
  : never;
export type HostConfigurationUpdateBody<P extends Processor = Processor> = P extends Processor
  ? z.output<Schemas[P]["update"]>
  : never;
/** Plaintext secrets, as sent. */
export type HostConfigurationCredentials<P extends Processor = Processor> = P extends Processor
  ? z.output<Schemas[P]["credentials"]>
  : never;
/** Everything sent but the secrets: what is stored in the clear and returned. */
export type HostConfigurationFields<P extends Processor = Processor> = P extends Processor
  ? Omit<HostConfigurationCreateBody<P>, "credentials">
  : never;
/** A configuration tagged with its processor, so merchant and settings match the processor. */
export type ProcessorConfiguration = {
  [P in Processor]: { processor: P; configuration: HostConfigurationFields<P> };
}[Processor];
