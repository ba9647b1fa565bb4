import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signatureHeaders } from "../../src/webhooks/signature.ts";

const body = JSON.stringify({ id: "evt_1", type: "transaction.approved", data: { note: "café ☕" } });

describe("webhook secrets", () => {
  it("are whsec_ followed by the base64 of 32 bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
  });

  it("differ from one another", () => {
    expect(generateWebhookSecret()).not.toBe(generateWebhookSecret());
  });
});

describe("signatureHeaders", () => {
  it("gives headers that the standardwebhooks library verifies", () => {
    const secret = generateWebhookSecret();
    const now = new Date();
    const headers = signatureHeaders("evt_1", now, body, [secret]);

    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("signs with each secret, and each secret alone verifies", () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signatureHeaders("evt_2", new Date(), body, [previous, current]);

    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("does not verify with another secret, or with another body", () => {
    const secret = generateWebhookSecret();
    const headers = signatureHeaders("evt_3", new Date(), body, [secret]);

    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow(WebhookVerificationError);
  });

  it("refuses a secret without the whsec_ prefix without quoting it, and an empty list", () => {
    expect(() => signatureHeaders("evt_4", new Date(), body, ["c2VjcmV0"])).toThrow(/must start with "whsec_"$/);
    expect(() => signatureHeaders("evt_4", new Date(), body, [])).toThrow(/at least one/);
  });
});
